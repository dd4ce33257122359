import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { wordErrorRate } from '../../bench/call/word-error-rate';

describe('word error rate', () => {
  test('when the transcript matches but for case and punctuation, then the rate is 0', () => {
    assert.equal(wordErrorRate('Hello, how can I help?', 'hello how can i help').rate, 0);
  });

  test('when words are swapped, dropped and added, then each counts once over the reference’s words', () => {
    const errors = wordErrorRate('the new date is friday', 'the date is on monday');
    // "new" dropped, "on" added, "friday" → "monday".
    assert.deepEqual({ ...errors, rate: undefined }, { substitutions: 1, deletions: 1, insertions: 1, words: 5, rate: undefined });
    assert.equal(errors.rate, 3 / 5);
  });

  test('when nothing was heard, then every word is a deletion', () => {
    assert.deepEqual(wordErrorRate('one two three', ''), { substitutions: 0, deletions: 3, insertions: 0, words: 3, rate: 1 });
  });
});
