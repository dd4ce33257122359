import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { overallConfidence } from '../../common/invoice';
import { extractionSchemaErrors } from '../../local/simulator/reader/output-schemas';
import { readInvoice } from '../../local/simulator/reader/read-invoice';

/** Inputs chosen to push each field to its edges: empty, huge, garbled, conflicting, every language. */
const INPUTS: Record<string, string> = {
  empty: '',
  whitespace: ' \n\t\n ',
  letter: 'Dear Ms. Vogel,\nthank you for your visit.\nKind regards',
  clean:
    'INVOICE\nSeller: A Ltd\nInvoice No: 1\nInvoice Date: 2024-01-31\nSubtotal: 10.00 EUR\nVAT: 2.10 EUR\nTotal due: 12.10 EUR',
  conflicting:
    'Invoice No: A\nInvoice No: B-2\nTotal: 5.00\nTotal: 6.00\nDate: 01/02/2024\nDate: 03/02/2024\nUSD 1.00 EUR 2.00',
  longNumber: `Invoice No: ${'X1'.repeat(80)}`,
  longIssuer: `Seller: ${'Acme '.repeat(30)}`,
  negativeTotal: 'Credit\nTotal: -40.00 EUR',
  garbled: '29.995.0024.99Total facture\n%%%%\n\u0000\u0001 € € $',
  manyRows: Array.from({ length: 700 }, (_, index) => `Item ${index} 1 2.00 2.00`).join('\n'),
  polish: 'Faktura nr: FV/1/2024\nData wystawienia: 12 stycznia 2024\nNależność ogółem: 1230,00 zł',
};

describe('readInvoice output', () => {
  for (const [name, text] of Object.entries(INPUTS)) {
    test(`when the document is ${name}, then the answer fits invoice-extraction.schema.json`, () => {
      const extraction = readInvoice(text);
      assert.deepEqual(extractionSchemaErrors(extraction), []);
    });
  }

  test('when a field is null, then its confidence is 0', () => {
    for (const text of Object.values(INPUTS)) {
      const { invoice, confidence } = readInvoice(text);
      for (const [field, value] of Object.entries(invoice)) {
        const empty = value === null || (Array.isArray(value) && value.length === 0);
        if (empty) assert.equal(confidence[field as keyof typeof confidence], 0, field);
      }
    }
  });

  test('when values conflict, then the overall confidence is below the review threshold', () => {
    assert.ok(overallConfidence(readInvoice(INPUTS.conflicting ?? '')) < 0.9);
    assert.ok(overallConfidence(readInvoice(INPUTS.clean ?? '')) >= 0.9);
  });
});
