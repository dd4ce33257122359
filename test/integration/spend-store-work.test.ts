import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Redis } from 'ioredis';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';
import { HOLD_TTL_MS } from '../../gateway/spend/spend-store';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';

/** Commands Redis ran since the last reset (scripts' inner commands included), but for this test's own probes. */
async function commandsSinceReset(redis: Redis): Promise<number> {
  const stats = await redis.info('commandstats');
  let calls = 0;
  for (const match of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (!['info', 'config'].includes(match[1] ?? '')) calls += Number(match[2]);
  }
  return calls;
}

/** What one more hold costs Redis, with `held` holds already there: commands run, and the script's own count of work. */
async function costOfOneHold(redis: Redis, tenantId: string, held: number): Promise<{ commands: number; work: number }> {
  let work = Number.NaN;
  const store = new RedisSpendStore(redis, { keyPrefix: `work-${process.pid}`, onScriptWork: (_op, units) => (work = units) });
  for (let i = 0; i < held; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, held - i) }, () => store.hold(tenantId, { dailyUsd: 1e9 }, 0.001)));
  }
  await redis.config('RESETSTAT');
  const result = await store.hold(tenantId, { dailyUsd: 1e9 }, 0.001);
  assert.ok(result.granted);
  return { commands: await commandsSinceReset(redis), work };
}

describe('the Redis spend script’s work per hold', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  test('when a tenant holds 10,000 calls instead of 10, then one more hold runs the same commands and reads the same elements', async () => {
    const client = redis.client();
    const few = await costOfOneHold(client, `few-${process.pid}`, 10);
    const many = await costOfOneHold(client, `many-${process.pid}`, 10_000);
    assert.ok(few.work > 0 && few.commands > 0);
    assert.deepEqual(many, few);
  });

  test('when a hold is taken, then it expires on Redis’s clock, not the worker’s', async () => {
    const client = redis.client();
    const store = new RedisSpendStore(client, { keyPrefix: `clock-${process.pid}` });
    const tenantId = `clock-${process.pid}`;
    const result = await store.hold(tenantId, {}, 0);
    assert.ok(result.granted);
    const [seconds, micros] = await client.time();
    const redisNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const expiry = Number(await client.zscore(store.keysOf(tenantId)[0] ?? '', result.hold.id));
    // The hold was taken an instant before TIME was read: its expiry is TIME + the TTL, give or take that instant.
    assert.ok(Math.abs(expiry - (redisNow + HOLD_TTL_MS)) < 5_000, `expiry ${expiry} vs Redis time ${redisNow}`);
  });
});
