import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { readText } from '../../activities/extract-text';
import { InvalidDocumentError } from '../../common/errors';
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
  test('when the PDF is corrupt, then InvalidDocument (not retryable) says so', async () => {
    const error = await readText(Buffer.from('%PDF-1.7\nthis is not really a pdf'), 'application/pdf').catch((e: unknown) => e);
    assert.ok(error instanceof InvalidDocumentError);
    assert.equal(error.retryable, false);
    assert.match(error.message, /not a readable PDF|could not be read/);
  });

  test('when the PDF is truncated, then InvalidDocument', async () => {
    const [first] = realInvoices('.pdf');
    assert.ok(first);
    const bytes = readFileSync(first.path);
    const error = await readText(bytes.subarray(0, Math.floor(bytes.length / 3)), 'application/pdf').catch((e: unknown) => e);
    assert.ok(error instanceof InvalidDocumentError, String(error));
  });

  test('when the upload is plain text, then it passes through unchanged', async () => {
    const { text, pages } = await readText(Buffer.from('Invoice 7\nTotal 10.00 EUR'), 'text/plain');
    assert.equal(text, 'Invoice 7\nTotal 10.00 EUR');
    assert.equal(pages, 0);
  });
});
