import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import PDFDocument from 'pdfkit';
import type { ExtractTextInput, ExtractTextResult } from '../../activities/invoice/contracts';
import { createExtractText } from '../../activities/invoice/extract-text';
import { readText } from '../../activities/read-upload';
import { DocumentTooLargeError, InvalidDocumentError } from '../../common/errors';
import type { UploadContentType } from '../../common/upload-content-type';
import type { ObjectStore } from '../../lib/object-store';
import { printedAmountPatterns, realInvoices } from '../support/real-invoices';
import { jpegHeadOf, pngOf, scannedPdfOf } from '../support/scans';

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

  test('when the PDF has pages but no text layer, then the model steps get it as a scan to read (no InvalidDocumentError)', async () => {
    const bytes = await scannedPdfOf(2);
    const result = await extractFrom(bytes, 'application/pdf');
    assert.equal(result.characters, 0);
    assert.deepEqual(result.visual, { key: 'inputs/test/scan', mediaType: 'application/pdf', pages: 2, sizeBytes: bytes.length });
  });

  test('when a scanned PDF has more pages than the deployment reads, then DocumentTooLargeError names the limit', async () => {
    const error = await extractFrom(await scannedPdfOf(3), 'application/pdf', 2).catch((e: unknown) => e);
    assert.ok(error instanceof DocumentTooLargeError, String(error));
    assert.match(error.message, /3 pages without a text layer.*at most 2 \(MODEL_SCANNED_MAX_PAGES\)/);
  });

  test('when the upload is a PNG, then it is one page to look at', async () => {
    const bytes = pngOf(40, 30);
    const result = await extractFrom(bytes, 'image/png');
    assert.deepEqual(result.visual, { key: 'inputs/test/scan', mediaType: 'image/png', pages: 1, sizeBytes: bytes.length });
  });

  test('when a file called a PNG is not one, then InvalidDocumentError', async () => {
    const error = await extractFrom(jpegHeadOf(10, 10), 'image/png').catch((e: unknown) => e);
    assert.ok(error instanceof InvalidDocumentError, String(error));
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

function extractFrom(bytes: Buffer, contentType: UploadContentType, maxScannedPages = 100): Promise<ExtractTextResult> {
  const store = { bucket: 'slowlane', getBytes: async () => bytes, put: async () => undefined } as Partial<ObjectStore> as ObjectStore;
  const input: ExtractTextInput = {
    jobId: 'invoice:test:scan',
    tenantId: 'test',
    priority: 'interactive',
    document: { bucket: 'slowlane', key: 'inputs/test/scan', sha256: 'scan', contentType, sizeBytes: bytes.length, fileName: 'scan' },
  };
  const extractText = createExtractText({ store, maxScannedPages });
  return new MockActivityEnvironment().run<[ExtractTextInput], ExtractTextResult, typeof extractText>(extractText, input);
}
