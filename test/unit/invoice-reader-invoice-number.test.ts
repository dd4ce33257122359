import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { leadingIdentifier, readInvoiceNumber } from '../../local/simulator/reader/invoice-number';
import { toLines } from '../../local/simulator/reader/text';

const read = (text: string) => readInvoiceNumber(toLines(text));

describe('readInvoiceNumber', () => {
  test('when a label in any of the languages names it, then it is read with high confidence', () => {
    const cases: Array<[string, string]> = [
      ['Invoice Number: NW-10017', 'NW-10017'],
      ['Invoice #: 4411', '4411'],
      ['Facture n° 2022089083', '2022089083'],
      ['Facture n°562044387 du 02 Juillet 2015', '562044387'],
      ['Factuurnummer: 2024-118', '2024-118'],
      ['Faktura VAT nr FV/2024/06/031', 'FV/2024/06/031'],
      ['Rechnungsnummer: RE-2024-0042', 'RE-2024-0042'],
    ];
    for (const [text, number] of cases) assert.deepEqual(read(text), { value: number, confidence: 0.97 }, text);
  });

  test('when the value sits before its label or on the next line, then it is read just above the review line', () => {
    assert.deepEqual(read('993548900Factuurnummer:'), { value: '993548900', confidence: 0.93 });
    assert.deepEqual(read('Invoice Number:\nINV-77'), { value: 'INV-77', confidence: 0.93 });
  });

  test('when a "#" stands between a number label and the value, then whether it belongs is left to a person', () => {
    assert.deepEqual(read('Invoice No : # BLR_WFLD20151000982590'), {
      value: 'BLR_WFLD20151000982590',
      confidence: 0.8,
    });
    assert.deepEqual(read('Invoice #: 4411'), { value: '4411', confidence: 0.97 });
  });

  test('when the number has a space inside, then where it ends is a guess and stays below the review line', () => {
    assert.deepEqual(read('Faktura nr: F 1234K20/1234/12        Data wystawienia: 2021-01-01'), {
      value: 'F 1234K20/1234/12',
      confidence: 0.8,
    });
  });

  test('when only a title word or a "#" precedes it, then it is read with the matching confidence', () => {
    assert.deepEqual(read('Invoice INV/2023/03/0008'), { value: 'INV/2023/03/0008', confidence: 0.93 });
    assert.deepEqual(read('INVOICE\n# invoice_number_1'), { value: 'invoice_number_1', confidence: 0.8 });
    assert.deepEqual(read('Please pay invoice 5512 soon'), { value: '5512', confidence: 0.7 });
  });

  test('when labels name other numbers or nothing, then there is no invoice number', () => {
    for (const text of [
      'Order ID: OD304175096047380001',
      'Invoice Date: 2023-03-20',
      'Keep this invoice and the box',
      'Numéro de dossier : 365146',
    ]) {
      assert.deepEqual(read(text), { value: null, confidence: 0 }, text);
    }
  });

  test('when two labels give different numbers, then it is a conflict', () => {
    assert.equal(read('Invoice No: A-1\nInvoice No: A-2').confidence, 0.55);
  });
});

describe('leadingIdentifier', () => {
  test('when a segment starts with a date, then it is no identifier', () => {
    assert.equal(leadingIdentifier(' 12/03/2024'), null);
    assert.deepEqual(leadingIdentifier(': 12-A.'), { value: '12-A', spansTokens: false });
  });
});
