import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import PDFDocument from 'pdfkit';
import type { ExtractTextInput, ExtractTextResult } from '../../activities/contracts';
import { createExtractText, readText } from '../../activities/extract-text';
import { InvalidDocumentError } from '../../common/errors';
import type { ObjectStore } from '../../lib/object-store';
import { printedAmountPatterns, realInvoices } from '../support/real-invoices';

describe('readText on the real invoices in ../shared/invoices', () => {
  for (const invoice of realInvoices('.pdf')) {
    test(`${invoice.name}: the text holds its invoice number and total as printed`, async () => {
      const { text, pages } = await readText(readFileSync(invoice.path), 'application/pdf');
      assert.ok(pages >= 1);
      assert.ok(text.includes(invoice.expected.invoice_number.replace(/^#/, '')), `invoice number ${invoice.expected.invoice_number} missing`);
      if (invoice.expected.amount !== undefined) {
        assert.match(text, printedAmountPatterns(invoice.expected.amount));
      }
    });
  }
});

describe('readText on documents it cannot read', () => {
  test('when the PDF is corrupt, then InvalidDocumentError (not retryable) says so', async () => {
    const error = await readText(Buffer.from('%PDF-1.7\nthis is not really a pdf'), 'application/pdf').catch((e: unknown) => e);
    assert.ok(error instanceof InvalidDocumentError);
    assert.equal(error.retryable, false);
    assert.match(error.message, /not a readable PDF|could not be read/);
  });

  test('when the PDF is truncated, then InvalidDocumentError', async () => {
    const [first] = realInvoices('.pdf');
    assert.ok(first);
    const bytes = readFileSync(first.path);
    const error = await readText(bytes.subarray(0, Math.floor(bytes.length / 3)), 'application/pdf').catch((e: unknown) => e);
    assert.ok(error instanceof InvalidDocumentError, String(error));
  });

  test('when the PDF is encrypted, then InvalidDocumentError asks for an unprotected copy', async () => {
    const bytes = await pdfOf({ userPassword: 'secret', ownerPassword: 'owner' }, (doc) => doc.text('Invoice INV-9 Total 10.00'));
    const error = await readText(bytes, 'application/pdf').catch((e: unknown) => e);
    assert.ok(error instanceof InvalidDocumentError, String(error));
    assert.equal(error.retryable, false);
    assert.match(error.message, /encrypted or password-protected/);
  });

  test('when the PDF has pages but no text layer, then the activity fails with InvalidDocumentError naming OCR', async () => {
    const bytes = await pdfOf({}, (doc) => doc.rect(50, 50, 200, 100).fill('#333333'));
    const store = { bucket: 'slowlane', getBytes: async () => bytes, put: async () => undefined } as Partial<ObjectStore> as ObjectStore;
    const input: ExtractTextInput = {
      jobId: 'invoice:test:scan',
      tenantId: 'test',
      priority: 'interactive',
      document: {
        bucket: 'slowlane',
        key: 'inputs/test/scan',
        sha256: 'scan',
        contentType: 'application/pdf',
        sizeBytes: bytes.length,
        fileName: 'scan.pdf',
      },
    };
    const extractText = createExtractText({ store });
    const error = await new MockActivityEnvironment()
      .run<[ExtractTextInput], ExtractTextResult, typeof extractText>(extractText, input)
      .catch((e: unknown) => e);
    assert.ok(error instanceof InvalidDocumentError, String(error));
    assert.match(error.message, /1 page\(s\) but no text layer/);
  });

  test('when the upload is plain text, then it passes through unchanged', async () => {
    const { text, pages } = await readText(Buffer.from('Invoice 7\nTotal 10.00 EUR'), 'text/plain');
    assert.equal(text, 'Invoice 7\nTotal 10.00 EUR');
    assert.equal(pages, 0);
  });
});

async function pdfOf(options: PDFKit.PDFDocumentOptions, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument(options);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  draw(doc);
  doc.end();
  return done;
}
