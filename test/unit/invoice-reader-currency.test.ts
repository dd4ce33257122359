import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { readCurrency } from '../../local/simulator/reader/currency';

describe('readCurrency', () => {
  test('when a code or an unambiguous symbol names one currency, then it is sure', () => {
    const cases: Array<[string, string]> = [
      ['Totaal € 717,97', 'EUR'],
      ['Należność ogółem: 316,83 PLN', 'PLN'],
      ['Do zapłaty 20 zł', 'PLN'],
      ['Total due: £ 1,500.00', 'GBP'],
      ['Amount ₹ 319.00', 'INR'],
      ['Factuur totaal EUR 49,99 and € 0,00', 'EUR'],
      ['Capital de 3.441.812 Euros', 'EUR'],
    ];
    for (const [text, currency] of cases)
      assert.deepEqual(readCurrency(text), { value: currency, confidence: 0.97 }, text);
  });

  test('when only "$" or "Rs." appears, then it is a likely guess unless the text names the country', () => {
    assert.deepEqual(readCurrency('Balance Due: $127.50'), { value: 'USD', confidence: 0.8 });
    assert.deepEqual(readCurrency('Total $ 279.84\nFremont CA 94538\nUnited States'), {
      value: 'USD',
      confidence: 0.93,
    });
    assert.deepEqual(readCurrency('Discount of Rs -40.00'), { value: 'INR', confidence: 0.8 });
    assert.deepEqual(readCurrency('Discount of Rs -40.00, Bangalore, Karnataka, India'), {
      value: 'INR',
      confidence: 0.93,
    });
  });

  test('when two currencies appear, then the most frequent is kept as a conflict', () => {
    assert.deepEqual(readCurrency('Total EUR 10.00, EUR 5.00; converted USD 11.00'), {
      value: 'EUR',
      confidence: 0.55,
    });
  });

  test('when no currency appears, then null with 0; codes inside words do not count', () => {
    assert.deepEqual(readCurrency('Total 10.00 EUROPA'), { value: null, confidence: 0 });
  });
});
