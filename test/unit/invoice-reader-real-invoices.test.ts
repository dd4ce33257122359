import assert from '../support/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from '@jest/globals';
import type { InvoiceExtraction } from '../../common/invoice';
import { classifyDocument } from '../../local/simulator/reader/classify';
import { extractionSchemaErrors } from '../../local/simulator/reader/output-schemas';
import { readInvoice } from '../../local/simulator/reader/read-invoice';
import { readDocumentText } from '../../local/samples/read-document-text';

/**
 * The reader against real invoices and the values a person read off them (../shared/invoices,
 * invoice2data's test set). The honesty rule: a value reported with confidence ≥ 0.9 must be right.
 * Values below 0.9 may be wrong — those invoices go to a person.
 */
const INVOICES_DIR = resolve(__dirname, '../../../shared/invoices');
const HIGH = 0.9;

interface Expected {
  invoice_number?: string;
  date?: string;
  currency?: string;
  amount?: number;
}

/** "#BLR_WFLD…" and "BLR_WFLD…" are the same number: the "#" is a label, not part of it. */
const normalizeNumber = (value: string): string => value.replace(/^#\s*/, '').replace(/\s+/g, ' ').trim();

const documents = readdirSync(INVOICES_DIR).filter((name) => /\.(pdf|txt)$/.test(name));

describe('the reader on real invoices', () => {
  test('when the shared invoices are present, then there are several to read', () => {
    assert.ok(documents.length >= 8, `found ${documents.length} in ${INVOICES_DIR}`);
  });

  for (const name of documents) {
    test(`when reading ${name}, then it is an invoice, schema-valid, and every confident value is right`, async () => {
      const text = await readDocumentText(join(INVOICES_DIR, name));
      const [expected] = JSON.parse(
        readFileSync(join(INVOICES_DIR, name.replace(/\.\w+$/, '.expected.json')), 'utf8'),
      ) as [Expected];

      const classification = classifyDocument(text);
      assert.equal(classification.documentType, 'invoice');
      assert.ok(classification.confidence >= HIGH, `classification confidence ${classification.confidence}`);

      const extraction: InvoiceExtraction = readInvoice(text);
      assert.deepEqual(extractionSchemaErrors(extraction), []);
      const { invoice, confidence } = extraction;
      if (confidence.invoiceNumber >= HIGH && expected.invoice_number !== undefined) {
        assert.equal(
          normalizeNumber(invoice.invoiceNumber ?? ''),
          normalizeNumber(expected.invoice_number),
          'invoiceNumber',
        );
      }
      if (confidence.issueDate >= HIGH && expected.date !== undefined) {
        assert.equal(invoice.issueDate, expected.date, 'issueDate');
      }
      if (confidence.currency >= HIGH && expected.currency !== undefined) {
        assert.equal(invoice.currency, expected.currency, 'currency');
      }
      if (confidence.totalAmount >= HIGH && expected.amount !== undefined) {
        assert.equal(invoice.totalAmount, expected.amount, 'totalAmount');
      }
    });
  }

  test('when all are read, then most confident reads of the checked fields are right and present', async () => {
    // Guards against a reader that passes the honesty rule by never being confident.
    let confident = 0;
    for (const name of documents) {
      const { confidence } = readInvoice(await readDocumentText(join(INVOICES_DIR, name)));
      confident += [confidence.invoiceNumber, confidence.issueDate, confidence.currency, confidence.totalAmount].filter(
        (value) => value >= HIGH,
      ).length;
    }
    assert.ok(confident >= documents.length * 2, `only ${confident} confident values`);
  });
});
