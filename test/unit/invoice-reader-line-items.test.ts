import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { readLineItems } from '../../local/simulator/reader/line-items';
import { toLines } from '../../local/simulator/reader/text';

describe('readLineItems', () => {
  test('when rows end in quantity, price and amount, then each becomes an item with quantity × price = amount', () => {
    const lines = toLines(
      [
        'Item Quantity Rate Amount',
        'Service A 12 $10.00 $120.00',
        'Apple iPad Air Wifi 16 GB Zilver 1 € 399,00 21% € 399,00',
        'E103184 Onderhoudsset CA6707/10 49,99 21 % 1 PCS 49,99',
        '1   Ulotki A5 (1000 szt.)     2       150,00       300,00',
        'Total: 868.99',
      ].join('\n'),
    );
    const result = readLineItems(lines, [868.99]);
    assert.deepEqual(result.value, [
      { description: 'Service A', quantity: 12, unitPrice: 10, amount: 120 },
      { description: 'Apple iPad Air Wifi 16 GB Zilver', quantity: 1, unitPrice: 399, amount: 399 },
      { description: 'E103184 Onderhoudsset CA6707/10', quantity: 1, unitPrice: 49.99, amount: 49.99 },
      { description: 'Ulotki A5 (1000 szt.)', quantity: 2, unitPrice: 150, amount: 300 },
    ]);
    assert.equal(result.confidence, 0.93);
  });

  test('when the items do not add up to a known sum, then the list is only a guess', () => {
    const result = readLineItems(toLines('Widget 2 5.00 10.00'), [99]);
    assert.equal(result.confidence, 0.5);
  });

  test('when lines are totals, dates, labels or addresses, then they are not items', () => {
    const lines = toLines(
      'Subtotal 5 10.00\nw tym: 257,59 23 59,24 316,83\nDue 2024-01-01 5.00\nLucknow 226010 Uttar Pradesh',
    );
    assert.deepEqual(readLineItems(lines, []), { value: [], confidence: 0 });
  });
});
