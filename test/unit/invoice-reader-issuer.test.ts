import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { readIssuer } from '../../local/simulator/reader/issuer';
import { toLines } from '../../local/simulator/reader/text';

const read = (text: string) => readIssuer(toLines(text));

describe('readIssuer', () => {
  test('when a seller label names the issuer, then it is sure, in several languages and glued forms', () => {
    assert.deepEqual(read('Sprzedawca: Polski Koncern Naftowy ORLEN S.A.\nNIP: 774'), {
      value: 'Polski Koncern Naftowy ORLEN S.A.',
      confidence: 0.97,
    });
    assert.deepEqual(read('WS Retail Services Pvt. Ltd.,Sold By :'), {
      value: 'WS Retail Services Pvt. Ltd.',
      confidence: 0.97,
    });
    assert.deepEqual(read('Émetteur : Atelier Lumière SARL'), { value: 'Atelier Lumière SARL', confidence: 0.97 });
  });

  test('when only a company with a legal form or an account holder appears, then it is inferred, not sure', () => {
    assert.deepEqual(read('FACTUUR.\nCoolblue B.V.\nWeena 664'), { value: 'Coolblue B.V.', confidence: 0.7 });
    assert.deepEqual(read('Virement : Titulaire du compte : NETPRESSE'), { value: 'NETPRESSE', confidence: 0.8 });
  });

  test('when the company with a legal form is the customer, then it is not taken for the issuer', () => {
    const result = read('Kopie factuur\nStrategic Corp\nT.a.v. bosd\nFakestreet 46');
    assert.notEqual(result.value, 'Strategic Corp');
  });

  test('when nothing names the issuer, then the top line is a low guess, skipping titles and table headers', () => {
    assert.deepEqual(read('INVOICE\nDescription Quantity Amount\nSammy Maystone\nsmaystone4@fake.com'), {
      value: 'Sammy Maystone',
      confidence: 0.4,
    });
    assert.deepEqual(read('12345\n'), { value: null, confidence: 0 });
  });
});
