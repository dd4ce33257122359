import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Priority } from '../../common/task-queues';
import { type CallCost, DIMENSIONS, type PoolState } from '../../gateway/budget/bucket-math';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { RedisBudget } from '../../gateway/budget/redis-budget';
import { type BudgetSettings, DEFAULT_POOL, type Reservation } from '../../gateway/budget/token-budget';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';

const POOLS = {
  [DEFAULT_POOL]: { inputTokensPerMinute: 60_000, outputTokensPerMinute: 20_000, requestsPerMinute: 120 },
};
/** A fixed interactive reserve, and one that follows interactive demand (decaying over seconds, so the walk sees it move). */
const SCENARIOS: Array<[string, BudgetSettings]> = [
  ['a fixed reserve', { pools: POOLS, interactiveShare: 0.2 }],
  [
    'a reserve following interactive demand',
    { pools: POOLS, interactiveShare: 0.3, interactiveIdleShare: 0.05, interactiveDecayMs: 4_000 },
  ],
];

/** A small deterministic generator, so a failing scenario replays the same way. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function close(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} vs ${expected}`);
}

function sameState(redis: PoolState, local: PoolState): void {
  for (const dimension of DIMENSIONS) {
    close(redis.reserve[dimension], local.reserve[dimension], `reserve.${dimension}`);
    close(redis.shared[dimension], local.shared[dimension], `shared.${dimension}`);
    assert.equal(redis.learnedLimit[dimension], local.learnedLimit[dimension]);
  }
  close(redis.pausedUntil, local.pausedUntil, 'pausedUntil');
  assert.equal(redis.interactiveSeenAt, local.interactiveSeenAt);
}

describe('the Redis budget script', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  test.each(SCENARIOS)(
    'with %s: when the same calls, refills, settlements and provider readings hit both budgets, then Redis and in-process agree',
    async (name, settings) => {
      let now = 1_700_000_000_000;
      const clock = () => now;
      const local = new InProcessBudget(settings, clock);
      const keyPrefix = `parity-${process.pid}-${name.replace(/\W+/g, '-')}`;
      const shared = new RedisBudget(redis.client(), settings, { keyPrefix, now: clock });
      const random = seeded(42);
      const open: Array<{ local: Reservation; shared: Reservation }> = [];
      let granted = 0;
      let refused = 0;

      for (let step = 0; step < 400; step++) {
        now += Math.floor(random() * 800);
        const roll = random();
        if (roll < 0.55) {
          const priority: Priority = random() < 0.3 ? 'interactive' : 'bulk';
          const cost: CallCost = {
            input: 200 + Math.floor(random() * 3_000),
            output: 256 + Math.floor(random() * 2_000),
            requests: 1,
          };
          const [a, b] = [
            await local.reserve(DEFAULT_POOL, priority, cost),
            await shared.reserve(DEFAULT_POOL, priority, cost),
          ];
          assert.equal(b.granted, a.granted, `step ${step}: granted`);
          if (a.granted && b.granted) {
            granted += 1;
            for (const dimension of DIMENSIONS) {
              close(
                b.reservation.taken[dimension].reserve,
                a.reservation.taken[dimension].reserve,
                `step ${step} taken`,
              );
              close(b.reservation.taken[dimension].shared, a.reservation.taken[dimension].shared, `step ${step} taken`);
            }
            open.push({ local: a.reservation, shared: b.reservation });
          } else if (!a.granted && !b.granted) {
            refused += 1;
            // Both round up a float; the last bit of a double may tip the ceiling by a millisecond.
            assert.ok(Math.abs(b.waitMs - a.waitMs) <= 1, `step ${step}: wait ${b.waitMs} vs ${a.waitMs}`);
            assert.equal(b.limitedBy, a.limitedBy, `step ${step}: limitedBy`);
          }
        } else if (roll < 0.85 && open.length > 0) {
          const [pair] = open.splice(Math.floor(random() * open.length), 1);
          if (!pair) continue;
          const used: CallCost = {
            input: Math.floor(pair.local.cost.input * (0.8 + random() * 0.4)),
            output: Math.floor(pair.local.cost.output * random()),
            requests: 1,
          };
          await local.settle(pair.local, used);
          await shared.settle(pair.shared, used);
        } else if (roll < 0.95) {
          // The provider's limits move (lowered, restored, above the configured one) and its buckets may be
          // overdrawn (a remaining below zero, as read from a reset more than a minute away).
          const inputLimit = random();
          const readings = {
            input: {
              ...(inputLimit < 0.3 ? { limit: inputLimit < 0.15 ? 30_000 : 90_000 } : {}),
              remaining: Math.floor(random() * 70_000) - 10_000,
            },
            requests: {
              limit: random() < 0.1 ? 100 : 120,
              ...(random() < 0.5 ? { remaining: Math.floor(random() * 120) } : {}),
            },
          };
          await local.observe(DEFAULT_POOL, { readings });
          await shared.observe(DEFAULT_POOL, { readings });
        } else {
          const pauseMs = Math.floor(random() * 3_000);
          await local.observe(DEFAULT_POOL, { readings: {}, pauseMs });
          await shared.observe(DEFAULT_POOL, { readings: {}, pauseMs });
        }
        const [a, b] = [
          await local.wait(DEFAULT_POOL, 'bulk', { input: 1_000, output: 500, requests: 1 }),
          await shared.wait(DEFAULT_POOL, 'bulk', { input: 1_000, output: 500, requests: 1 }),
        ];
        assert.equal(b.limitedBy, a.limitedBy, `step ${step}: limitedBy`);
        assert.ok(Math.abs(b.waitMs - a.waitMs) <= 1, `step ${step}: wait ${b.waitMs} vs ${a.waitMs}`);
      }
      await shared.observe(DEFAULT_POOL, { readings: {} });
      const stored = await shared.snapshot(DEFAULT_POOL);
      assert.ok(stored);
      sameState(stored, local.snapshot(DEFAULT_POOL));
      assert.ok(
        granted > 50 && refused > 20,
        `the scenario should exercise both outcomes (granted ${granted}, refused ${refused})`,
      );
    },
  );
});
