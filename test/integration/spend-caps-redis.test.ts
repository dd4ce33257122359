import { afterAll, beforeAll, describe } from '@jest/globals';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';
import { spendStoreScenarios } from '../support/spend-store-scenarios';

// The same scenarios as the in-process store's (test/unit/spend-caps.test.ts), against the Lua script the fleet shares.
describe('the Redis spend store', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  spendStoreScenarios(
    (clock) => new RedisSpendStore(redis.client(), { keyPrefix: `spend-test-${process.pid}`, clock }),
    (name) => `${name}-${process.pid}`,
  );
});
