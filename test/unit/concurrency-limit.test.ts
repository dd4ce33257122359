import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { InProcessConcurrencyLimit } from '../../gateway/budget/concurrency-limit';

describe('the in-process concurrency limit', () => {
  test('when every slot is taken, then the next is refused until one is released', async () => {
    const limit = new InProcessConcurrencyLimit(2);
    const first = await limit.acquire('whisper-1', 60_000);
    const second = await limit.acquire('whisper-1', 60_000);
    assert.ok(first && second && first.id !== second.id);
    assert.equal(await limit.acquire('whisper-1', 60_000), undefined);
    assert.ok(await limit.acquire('other-model', 60_000), 'each pool counts its own');

    await limit.release(first);

    assert.equal(await limit.inFlight('whisper-1'), 1);
    assert.ok(await limit.acquire('whisper-1', 60_000));
  });

  test('when a holder never releases (its worker died), then its slot lapses after the hold time', async () => {
    let now = 1_000_000;
    const limit = new InProcessConcurrencyLimit(1, () => now);
    assert.ok(await limit.acquire('whisper-1', 5_000));
    now += 4_999;
    assert.equal(await limit.acquire('whisper-1', 5_000), undefined);
    now += 1;
    assert.ok(await limit.acquire('whisper-1', 5_000));
  });
});
