import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { coalescedSends } from '../../lib/coalesced-sends';

/** A send that holds each call open until the test lets it go, recording what it carried. */
function heldSends() {
  const sent: Array<{ key: string; items: number[] }> = [];
  const releases: Array<(error?: Error) => void> = [];
  const send = (key: string, items: number[]) =>
    new Promise<void>((resolve, reject) => {
      sent.push({ key, items });
      releases.push((error) => (error ? reject(error) : resolve()));
    });
  /** Lets the oldest held send finish (or fail), then lets the promises it settles run. */
  const release = async (error?: Error) => {
    releases.shift()?.(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { sent, send, release };
}

describe('coalesced sends', () => {
  test('when items arrive while a send is in flight, then they go together in the next send, at most maxItems each', async () => {
    const { sent, send, release } = heldSends();
    const sendOne = coalescedSends(send, 3);
    const done: number[] = [];
    const calls = [0, 1, 2, 3, 4, 5].map((n) => sendOne('model-a', n).then(() => done.push(n)));
    assert.deepEqual(sent, [{ key: 'model-a', items: [0] }], 'the first item goes at once, alone');
    await release();
    assert.deepEqual(done, [0], 'a caller settles with the send that carried its item');
    assert.deepEqual(sent[1], { key: 'model-a', items: [1, 2, 3] });
    await release();
    assert.deepEqual(sent[2], { key: 'model-a', items: [4, 5] });
    await release();
    await Promise.all(calls);
    assert.deepEqual(done, [0, 1, 2, 3, 4, 5]);
    assert.equal(sent.length, 3);
  });

  test('when a send fails, then exactly the callers it carried fail, and later items are still sent', async () => {
    const { sent, send, release } = heldSends();
    const sendOne = coalescedSends(send, 10);
    const outcomes = new Map<number, string>();
    const calls = [0, 1, 2, 3].map((n) =>
      sendOne('model-a', n).then(
        () => outcomes.set(n, 'sent'),
        (error: Error) => outcomes.set(n, error.message),
      ),
    );
    await release();
    await release(new Error('unavailable'));
    await Promise.all(calls);
    assert.deepEqual(
      sent.map((one) => one.items),
      [[0], [1, 2, 3]],
    );
    assert.deepEqual(
      [...outcomes.entries()].sort(([a], [b]) => a - b),
      [
        [0, 'sent'],
        [1, 'unavailable'],
        [2, 'unavailable'],
        [3, 'unavailable'],
      ],
    );
    await Promise.all([sendOne('model-a', 4), release()]);
    assert.deepEqual(sent.at(-1)?.items, [4], 'the key is free again after a failure');
  });

  test('when items have different keys, then each key has its own send in flight', async () => {
    const { sent, send, release } = heldSends();
    const sendOne = coalescedSends(send, 10);
    const calls = [sendOne('model-a', 1), sendOne('model-b', 2), sendOne('model-a', 3)];
    assert.deepEqual(sent, [
      { key: 'model-a', items: [1] },
      { key: 'model-b', items: [2] },
    ]);
    await release();
    await release();
    await release();
    await Promise.all(calls);
    assert.deepEqual(sent[2], { key: 'model-a', items: [3] });
  });

  test('when maxItems is not a positive integer, then it is refused', () => {
    assert.throws(() => coalescedSends(async () => undefined, 0), RangeError);
  });
});
