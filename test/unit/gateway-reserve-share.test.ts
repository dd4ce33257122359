import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { CallCost } from '../../gateway/budget/bucket-math';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { DEFAULT_POOL } from '../../gateway/budget/token-budget';

/** 60,000 input tokens a minute is one per millisecond, which keeps the expected numbers readable. */
const LIMITS = { inputTokensPerMinute: 60_000, outputTokensPerMinute: 12_000, requestsPerMinute: 600 };
const BUSY = 0.25;
const IDLE = 0.05;
const DECAY_MS = 10_000;

function setup() {
  let now = 1_000_000;
  const budget = new InProcessBudget(
    {
      pools: { [DEFAULT_POOL]: LIMITS },
      interactiveShare: BUSY,
      interactiveIdleShare: IDLE,
      interactiveDecayMs: DECAY_MS,
    },
    () => now,
  );
  return {
    budget,
    advance: (ms: number) => {
      now += ms;
    },
    input: () => {
      const state = budget.snapshot(DEFAULT_POOL);
      return { reserve: state.reserve.input, shared: state.shared.input };
    },
  };
}

const call = (input: number): CallCost => ({ input, output: 0, requests: 1 });
const near = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${actual} vs ${expected}`);

describe('the interactive reserve follows interactive demand', () => {
  test('when no interactive call has asked, then bulk may spend all of the pool but the idle share', async () => {
    const { budget, input } = setup();
    assert.deepEqual(input(), { reserve: 3_000, shared: 57_000 });
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(57_000))).granted, true);
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(1))).granted, false);
  });

  test('when an interactive call asks, then the reserve is back to its full share at once, out of what bulk left', async () => {
    const { budget, input } = setup();
    const result = await budget.reserve(DEFAULT_POOL, 'interactive', call(1_000));
    assert.equal(result.granted, true);
    // The shared part's cap fell to 45,000; its 12,000 beyond that moved into the reserve, which paid the call.
    assert.deepEqual(input(), { reserve: 14_000, shared: 45_000 });
  });

  test('when interactive calls stop, then the reserve relaxes toward the idle share with the decay time constant', async () => {
    const { budget, advance, input } = setup();
    await budget.reserve(DEFAULT_POOL, 'interactive', call(0));
    advance(DECAY_MS);
    const share = IDLE + (BUSY - IDLE) * Math.exp(-1);
    near(input().reserve, 60_000 * share);
    near(input().shared, 60_000 * (1 - share));
    advance(20 * DECAY_MS);
    near(input().reserve, 60_000 * (IDLE + (BUSY - IDLE) * Math.exp(-21)));
  });

  test('when bulk drained the pool while interactive was idle, then interactive refills at its full share once it asks', async () => {
    const { budget, advance, input } = setup();
    await budget.reserve(DEFAULT_POOL, 'bulk', call(57_000));
    await budget.reserve(DEFAULT_POOL, 'bulk', call(3_000)).then((result) => assert.equal(result.granted, false));
    const refused = await budget.reserve(DEFAULT_POOL, 'interactive', call(10_000));
    assert.equal(refused.granted, false);
    advance(4_000);
    // The refill went to the reserve at the share of the moment (relaxing since the refused call), not the idle one.
    const share = IDLE + (BUSY - IDLE) * Math.exp(-4_000 / DECAY_MS);
    near(input().reserve, 3_000 + 4_000 * share);
    assert.ok(input().reserve > 3_000 + 4_000 * IDLE * 3);
  });

  test('when only the pacing of polls asks how long an interactive call would wait, then the reserve stays idle', async () => {
    const { budget, input } = setup();
    await budget.wait(DEFAULT_POOL, 'interactive', call(1_000));
    assert.equal(budget.snapshot(DEFAULT_POOL).interactiveSeenAt, null);
    assert.deepEqual(input(), { reserve: 3_000, shared: 57_000 });
  });

  test('when no idle share is configured, then the reserve is fixed at the interactive share as before', async () => {
    let now = 0;
    const budget = new InProcessBudget({ pools: { [DEFAULT_POOL]: LIMITS }, interactiveShare: BUSY }, () => now);
    await budget.reserve(DEFAULT_POOL, 'interactive', call(0));
    now += 10 * DECAY_MS;
    const state = budget.snapshot(DEFAULT_POOL);
    assert.deepEqual({ reserve: state.reserve.input, shared: state.shared.input }, { reserve: 15_000, shared: 45_000 });
  });
});
