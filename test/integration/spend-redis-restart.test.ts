import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { checkRedisPersistence, RedisNotPersistentError } from '../../gateway/spend/redis-persistence';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';

const quiet = { info: () => undefined, warn: () => undefined };
const today = () => new Date().toISOString().slice(0, 10);

describe('spend totals across a Redis restart', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  test('when Redis restarts mid-run, then the day’s and month’s totals and a batch entry’s hold are all still there', async () => {
    const tenantId = `restart-${process.pid}`;
    const keyPrefix = `restart-${process.pid}`;
    const before = new RedisSpendStore(redis.client(), { keyPrefix });
    for (const usd of [0.5, 0.25]) {
      const held = await before.hold(tenantId, { dailyUsd: 2 }, usd);
      assert.ok(held.granted);
      await before.settle(held.hold, usd);
    }
    const entry = await before.hold(tenantId, { dailyUsd: 2 }, 1, { id: `entry-${tenantId}`, ttlMs: 26 * 60 * 60_000 });
    assert.ok(entry.granted);

    await redis.restart();

    const after = new RedisSpendStore(redis.client(), { keyPrefix });
    assert.deepEqual(await after.totalsOn(tenantId, today()), { day: 0.75, month: 0.75, held: 1 });
    const refused = await after.hold(tenantId, { dailyUsd: 2 }, 0.5);
    assert.ok(!refused.granted && refused.spentUsd === 1.75, 'the spent 0.75 and the entry’s 1 held still count');
    assert.deepEqual(await after.settle(entry.hold, 0.5), { day: 1.25, month: 1.25 });
    const again = await after.hold(tenantId, { dailyUsd: 2 }, 0.5);
    assert.ok(again.granted, 'the settled entry freed its hold');
  });

  test('when the worker starts on a Redis without an append-only file, then production refuses with the reason and local only warns', async () => {
    await checkRedisPersistence(redis.client(), { deployment: 'production', persistence: 'checked' }, quiet);
    const volatile = await startLocalRedis({ appendOnly: false });
    try {
      const client = volatile.client();
      const refusal = await checkRedisPersistence(client, { deployment: 'production', persistence: 'checked' }, quiet).catch((error: unknown) => error);
      assert.ok(refusal instanceof RedisNotPersistentError, String(refusal));
      assert.match(refusal.message, /appendonly no/);
      const warnings: string[] = [];
      await checkRedisPersistence(client, { deployment: 'local', persistence: 'checked' }, { ...quiet, warn: (...args: unknown[]) => void warnings.push(String(args.at(-1))) });
      assert.equal(warnings.length, 1);
      await checkRedisPersistence(client, { deployment: 'production', persistence: 'managed' }, quiet);
    } finally {
      await volatile.stop();
    }
  });
});
