import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { readDueDate, readIssueDate } from '../../local/simulator/reader/date-fields';
import { dayMonthOrderOf, findDates } from '../../local/simulator/reader/dates';
import { toLines } from '../../local/simulator/reader/text';

const isoDates = (text: string) => findDates(text).map((date) => date.iso);

describe('findDates', () => {
  test('when dates are written in the usual formats and languages, then each is read as YYYY-MM-DD', () => {
    const cases: Array<[string, string]> = [
      ['2021-01-01', '2021-01-01'],
      ['28/11/2022', '2022-11-28'],
      ['15.03.2024', '2024-03-15'],
      ['8-9-2022', '2022-09-08'],
      ['Jan 1, 2022', '2022-01-01'],
      ['March 3rd, 2024', '2024-03-03'],
      ['18 april 2014', '2014-04-18'],
      ['02 Juillet 2015', '2015-07-02'],
      ['1er août 2020', '2020-08-01'],
      ['12 stycznia 2021', '2021-01-12'],
      ['3 mei 2015', '2015-05-03'],
      ['15. März 2024', '2024-03-15'],
    ];
    for (const [text, iso] of cases) assert.deepEqual(isoDates(`on ${text}.`), [iso], text);
  });

  test('when the digits prove the order, then it is used whatever the hint', () => {
    assert.deepEqual(isoDates('03/20/2023'), ['2023-03-20']);
    assert.equal(findDates('03/20/2023')[0]?.provenOrder, 'mdy');
    assert.equal(findDates('20/03/2023', 'mdy')[0]?.iso, '2023-03-20');
  });

  test('when both orders are valid, then the hint decides and the date is flagged as assumed', () => {
    const [dmy] = findDates('03/04/2023', 'dmy');
    const [mdy] = findDates('03/04/2023', 'mdy');
    assert.equal(dmy?.iso, '2023-04-03');
    assert.equal(mdy?.iso, '2023-03-04');
    assert.equal(dmy?.orderAssumed, true);
    assert.equal(findDates('04/04/2023')[0]?.orderAssumed, false);
  });

  test('when numbers only look like dates, then they are not dates', () => {
    assert.deepEqual(isoDates('31/02/2023 2023-13-01 F 1234K20/1234/12 Mario Kart 7 3DS 45,93 €'), []);
  });

  test('when text is glued to a date, as PDF extraction does, then the date is still found', () => {
    assert.deepEqual(isoDates('20-10-2015Invoice Date:'), ['2015-10-20']);
    assert.deepEqual(isoDates('19 april 2014Factuurdatum:'), ['2014-04-19']);
  });
});

describe('dayMonthOrderOf', () => {
  test('when a date in the document proves the order, then that order is proven', () => {
    assert.deepEqual(dayMonthOrderOf('Date 03/20/2023 Due 04/05/2023'), { order: 'mdy', proven: true });
    assert.deepEqual(dayMonthOrderOf('Datum 20/03/2023'), { order: 'dmy', proven: true });
  });

  test('when nothing proves it, then dollars and English suggest month first, anything else day first', () => {
    assert.deepEqual(dayMonthOrderOf('Invoice total $ 5.00 on 03/04/2023'), { order: 'mdy', proven: false });
    assert.deepEqual(dayMonthOrderOf('Factuur totaal € 5,00 op 03/04/2023'), { order: 'dmy', proven: false });
  });
});

describe('readIssueDate', () => {
  const issue = (text: string) => readIssueDate(toLines(text), null);

  test('when a clear label names the date, then it is read with high confidence', () => {
    assert.deepEqual(issue('Invoice Date: 2024-03-15'), { value: '2024-03-15', confidence: 0.97 });
    assert.deepEqual(issue('Data wystawienia: 2021-01-01'), { value: '2021-01-01', confidence: 0.97 });
    assert.deepEqual(issue('19 april 2014Factuurdatum:'), { value: '2014-04-19', confidence: 0.93 });
    assert.deepEqual(issue('Invoice Date:\n03/20/2023'), { value: '2023-03-20', confidence: 0.93 });
  });

  test('when only "Date:" labels it, then dates labelled as something else never count as labelled', () => {
    assert.deepEqual(issue('Order Date: 2024-01-02\nDate : 28/11/2022'), { value: '2022-11-28', confidence: 0.97 });
    assert.deepEqual(issue('Date limite de paiement le 05/07/2015\nDue Date: 2015-07-09'), {
      value: '2015-07-05',
      confidence: 0.5,
    });
  });

  test('when the date follows the invoice number, then it is taken just below the certainty line', () => {
    assert.deepEqual(issue('Facture n°562044387 du 02 Juillet 2015'), { value: '2015-07-02', confidence: 0.93 });
  });

  test('when labelled dates disagree, then confidence drops to the conflict level', () => {
    const result = issue('Invoice Date: 2024-03-15\nInvoice Date: 2024-03-16');
    assert.equal(result.confidence, 0.55);
  });

  test('when the day/month order is only assumed, then the date stays below the review line', () => {
    const result = issue('Factuur\nFactuurdatum: 03/04/2023');
    assert.equal(result.value, '2023-04-03');
    assert.ok(result.confidence < 0.9);
  });

  test('when no label names any date, then the first date is a guess; with no date, null and 0', () => {
    assert.deepEqual(issue('Jan 1, 2022\nNet 30 days\nJan 31, 2022'), { value: '2022-01-01', confidence: 0.5 });
    assert.deepEqual(issue('Date : voir bon de livraison'), { value: null, confidence: 0 });
  });
});

describe('readDueDate', () => {
  test('when labelled in any of the languages, then it is read; unlabelled dates are not due dates', () => {
    assert.deepEqual(readDueDate(toLines('Vervaldatum\n22-9-2022')), { value: '2022-09-22', confidence: 0.93 });
    assert.deepEqual(readDueDate(toLines('Fällig am: 14.04.2024')), { value: '2024-04-14', confidence: 0.97 });
    assert.deepEqual(readDueDate(toLines('Termin płatności: 2024-06-28')), { value: '2024-06-28', confidence: 0.97 });
    assert.deepEqual(readDueDate(toLines('Jan 31, 2022')), { value: null, confidence: 0 });
  });
});
