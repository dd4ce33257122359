import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { classifyDocument } from '../../local/simulator/reader/classify';
import { classificationSchemaErrors } from '../../local/simulator/reader/output-schemas';

const INVOICE_BODY = 'Invoice No: 12\nTotal: 10.00 EUR';

describe('classifyDocument', () => {
  test('when the title says invoice in any language and the anatomy agrees, then it is an invoice, sure', () => {
    for (const title of ['INVOICE', 'Tax Invoice', 'FACTURE', 'Factuur', 'Faktura VAT', 'Rechnung']) {
      const result = classifyDocument(`${title}\n${INVOICE_BODY}`);
      assert.equal(result.documentType, 'invoice', title);
      assert.ok(result.confidence >= 0.9, title);
    }
  });

  test('when the document calls itself something else, then that type wins', () => {
    assert.equal(classifyDocument('RECEIPT\nThank you for shopping\nTotal: 4.50').documentType, 'receipt');
    assert.equal(
      classifyDocument('CREDIT NOTE\nCredit note no: CN-1 for invoice 12\nTotal: -10.00').documentType,
      'credit_note',
    );
    assert.equal(classifyDocument('PURCHASE ORDER\nPO 77\nTotal: 100.00').documentType, 'purchase_order');
  });

  test('when a letter or a recipe shows no document wording, then it is other', () => {
    const letter = 'Dear Ms. Vogel,\nthank you for visiting our workshop.\nKind regards, Anna';
    const recipe = 'Apple cake\n250 g flour, 3 eggs, 2 apples.\nBake for 45 minutes at 180 degrees.';
    for (const text of [letter, recipe]) assert.equal(classifyDocument(text).documentType, 'other');
  });

  test('when a letter only mentions an invoice, then it is other: no number, total or amounts', () => {
    const result = classifyDocument(
      'Dear customer,\nwe will send the invoice for the ordered items next week.\nRegards',
    );
    assert.equal(result.documentType, 'other');
    assert.ok(result.confidence < 0.9);
  });

  test('when classifying anything, then the answer fits the classification schema', () => {
    for (const text of ['', 'INVOICE', `INVOICE\n${INVOICE_BODY}`, 'x'.repeat(5000)]) {
      assert.deepEqual(classificationSchemaErrors(classifyDocument(text)), []);
    }
  });
});
