import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { readAmounts } from '../../local/simulator/reader/amount-fields';
import { findAmounts, parseAmount } from '../../local/simulator/reader/amounts';
import { toLines } from '../../local/simulator/reader/text';

describe('parseAmount', () => {
  test('when written with either decimal mark or thousands separator, then the value is right', () => {
    const cases: Array<[string, number]> = [
      ['319.00', 319],
      ['717,97', 717.97],
      ['1,234.50', 1234.5],
      ['1.234,50', 1234.5],
      ['3.441.812', 3441812],
      ['-9,32', -9.32],
      ['42', 42],
    ];
    for (const [raw, value] of cases) assert.equal(parseAmount(raw)?.value, value, raw);
  });

  test('when one separator is followed by three digits, then it is read as thousands but flagged', () => {
    assert.deepEqual(parseAmount('54,910'), { value: 54910, ambiguous: true, hasDecimals: false });
  });

  test('when digits are glued or over-precise, then it is no amount at all', () => {
    for (const raw of ['29.995.0024.99', '4,2421', '1.2.3']) assert.equal(parseAmount(raw), null, raw);
  });
});

describe('findAmounts', () => {
  test('when numbers are identifiers, rates or parts of references, then they are skipped', () => {
    const values = findAmounts('TVA F63530848134 CA6707/10 21 % 15.00% Total $ 279.84 € 4,24').map(
      (amount) => amount.value,
    );
    assert.deepEqual(values, [279.84, 4.24]);
  });
});

describe('readAmounts', () => {
  const read = (text: string) => readAmounts(toLines(text));

  test('when subtotal + tax = total, then all three are sure', () => {
    const result = read('Total HT : 46,68 €\nTVA 20% : 9,34 €\nTotal TTC : 56,02 €');
    assert.deepEqual(result, {
      totalAmount: { value: 56.02, confidence: 0.97 },
      subtotalAmount: { value: 46.68, confidence: 0.97 },
      taxAmount: { value: 9.34, confidence: 0.97 },
    });
  });

  test('when a payable label exists, then a plain "Total" row of column sums does not compete', () => {
    const result = read('Total 1 278.61 40.39 319.00\nGrand Total 319.00');
    assert.deepEqual(result.totalAmount, { value: 319, confidence: 0.97 });
  });

  test('when two plain totals disagree, then the total is a conflict below the review line', () => {
    const result = read('Total: CHF 1,180.00\nVenue 900.00\nTotal: CHF 1,250.00');
    assert.equal(result.totalAmount.confidence, 0.55);
  });

  test('when conflicting totals are settled only by arithmetic, then the total is likely, not sure', () => {
    const result = read('Total: 121.00\nSubtotal: 100.00\nVAT: 21.00\nTotal: 150.00');
    assert.deepEqual(result.totalAmount, { value: 121, confidence: 0.8 });
  });

  test('when section subtotals repeat, then the one that adds up with the tax is chosen', () => {
    const result = read(
      'Subtotal $ 112.00\nSubtotal $ 150.90\nSubtotal $ 262.90\nTax 15% on $ 112.90 $ 16.94\nTotal $ 279.84',
    );
    assert.deepEqual(result.subtotalAmount, { value: 262.9, confidence: 0.97 });
    assert.deepEqual(result.taxAmount, { value: 16.94, confidence: 0.97 });
  });

  test('when PDF extraction glues the value before its label, then it is still read', () => {
    assert.deepEqual(read('29.99 € TTCSomme à payer').totalAmount, { value: 29.99, confidence: 0.93 });
  });

  test('when a date follows the label on the line, then its day and year are not amounts', () => {
    assert.deepEqual(read('Montant du prélèvement :29.99 € Prélèvement à partir du : 05 Juillet 2015').totalAmount, {
      value: 29.99,
      confidence: 0.97,
    });
  });

  test('when tax words name a number or an inclusive price, then they are not the tax amount', () => {
    const result = read('VAT number: 123456789\nPrices incl. BTW 21,00\nAmount due: 50.00');
    assert.deepEqual(result.taxAmount, { value: null, confidence: 0 });
  });

  test('when no label names a total, then the largest amount is a guess', () => {
    assert.deepEqual(read('Service A 12 $10.00 $120.00\n$127.50').totalAmount, { value: 127.5, confidence: 0.5 });
    assert.deepEqual(read('Nothing to pay here').totalAmount, { value: null, confidence: 0 });
  });
});
