import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { CallCost } from '../../gateway/budget/bucket-math';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { DEFAULT_POOL } from '../../gateway/budget/token-budget';

/** 60,000 input tokens a minute is one per millisecond, which keeps the expected numbers readable. */
const LIMITS = { inputTokensPerMinute: 60_000, outputTokensPerMinute: 12_000, requestsPerMinute: 600 };
const SHARE = 0.25;

function setup() {
  let now = 1_000_000;
  const budget = new InProcessBudget({ pools: { [DEFAULT_POOL]: LIMITS }, interactiveShare: SHARE }, () => now);
  return {
    budget,
    advance: (ms: number) => {
      now += ms;
    },
    level: (dimension: keyof CallCost = 'input') => {
      const state = budget.snapshot(DEFAULT_POOL);
      return { reserve: state.reserve[dimension], shared: state.shared[dimension] };
    },
  };
}

const call = (input: number, output = 0): CallCost => ({ input, output, requests: 1 });

describe('token budget arithmetic', () => {
  test('when a call is reserved, then its estimate leaves the bucket before it goes out', async () => {
    const { budget, level } = setup();
    const result = await budget.reserve(DEFAULT_POOL, 'bulk', call(10_000, 1_000));
    assert.equal(result.granted, true);
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 35_000 });
    assert.deepEqual(level('output'), { reserve: 3_000, shared: 8_000 });
  });

  test('when the shared part cannot cover a bulk call, then it is refused with the time until it could', async () => {
    const { budget } = setup();
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(40_000))).granted, true);
    const refused = await budget.reserve(DEFAULT_POOL, 'bulk', call(10_000));
    // 5,000 left of the 45,000 shared; the interactive reserve is full, so its refill overflows to bulk too:
    // the missing 5,000 come back at the whole pool's rate of one token per millisecond.
    assert.deepEqual(refused, { granted: false, waitMs: 5_000, limitedBy: 'input' });
  });

  test('when a call settles below its estimate, then the unused tokens go back and only the usage stays spent', async () => {
    const { budget, level } = setup();
    const result = await budget.reserve(DEFAULT_POOL, 'bulk', call(2_000, 4_096));
    assert.ok(result.granted);
    await budget.settle(result.reservation, { input: 1_900, output: 250, requests: 1 });
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 45_000 - 1_900 });
    assert.deepEqual(level('output'), { reserve: 3_000, shared: 9_000 - 250 });
  });

  test('when a call used more than it reserved, then the difference is charged even into debt', async () => {
    const { budget, level } = setup();
    await budget.reserve(DEFAULT_POOL, 'bulk', call(44_000));
    const result = await budget.reserve(DEFAULT_POOL, 'bulk', call(1_000));
    assert.ok(result.granted);
    await budget.settle(result.reservation, { input: 3_000, output: 0, requests: 1 });
    assert.deepEqual(level('input'), { reserve: 15_000, shared: -2_000 });
  });

  test('when time passes, then the bucket refills at its per-minute rate and never beyond its capacity', async () => {
    const { budget, advance, level } = setup();
    await budget.reserve(DEFAULT_POOL, 'interactive', call(20_000));
    await budget.reserve(DEFAULT_POOL, 'bulk', call(40_000));
    assert.deepEqual(level('input'), { reserve: 0, shared: 0 });
    advance(10_000);
    // 10,000 tokens refilled, split by the share.
    assert.deepEqual(level('input'), { reserve: 2_500, shared: 7_500 });
    advance(10 * 60_000);
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 45_000 });
  });

  test('when bulk has drained everything it may, then interactive still gets its reserved share', async () => {
    const { budget } = setup();
    while ((await budget.reserve(DEFAULT_POOL, 'bulk', call(5_000))).granted);
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(1))).granted, false);
    const interactive = await budget.reserve(DEFAULT_POOL, 'interactive', call(15_000));
    assert.equal(interactive.granted, true);
  });

  test('when interactive is idle, then bulk gets the whole refill rate, the reserve overflowing into it', async () => {
    const { budget, advance, level } = setup();
    await budget.reserve(DEFAULT_POOL, 'bulk', call(45_000));
    advance(6_000);
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 6_000 });
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(6_000))).granted, true);
  });

  test('when interactive calls, then it draws its reserve before the shared part', async () => {
    const { budget, level } = setup();
    await budget.reserve(DEFAULT_POOL, 'interactive', call(20_000));
    assert.deepEqual(level('input'), { reserve: 0, shared: 40_000 });
  });

  test('when interactive has used its reserve and bulk the rest, then interactive waits only for its own refill', async () => {
    const { budget } = setup();
    await budget.reserve(DEFAULT_POOL, 'bulk', call(45_000));
    await budget.reserve(DEFAULT_POOL, 'interactive', call(15_000));
    const refused = await budget.reserve(DEFAULT_POOL, 'interactive', call(1_000));
    assert.deepEqual(refused, { granted: false, waitMs: 1_000, limitedBy: 'input' });
  });

  test('when every request of the minute is used, then the requests bucket refuses even a tiny call', async () => {
    const { budget } = setup();
    for (let index = 0; index < 600; index++)
      assert.ok((await budget.reserve(DEFAULT_POOL, 'interactive', call(1))).granted);
    const refused = await budget.reserve(DEFAULT_POOL, 'interactive', call(1));
    assert.deepEqual(refused, { granted: false, waitMs: 100, limitedBy: 'requests' });
  });

  test('when a call costs more than bulk may ever hold, then it goes once the shared part is full instead of never', async () => {
    const { budget, level } = setup();
    const result = await budget.reserve(DEFAULT_POOL, 'bulk', call(50_000));
    assert.equal(result.granted, true);
    assert.deepEqual(level('input'), { reserve: 15_000, shared: -5_000 });
  });

  test('when the provider asks for a pause, then both classes wait until it ends, whatever the bucket holds', async () => {
    const { budget, advance } = setup();
    await budget.observe(DEFAULT_POOL, { readings: {}, pauseMs: 7_000 });
    advance(2_000);
    assert.deepEqual(await budget.reserve(DEFAULT_POOL, 'interactive', call(1)), {
      granted: false,
      waitMs: 5_000,
      limitedBy: 'paused',
    });
    assert.deepEqual(await budget.reserve(DEFAULT_POOL, 'bulk', call(1)), {
      granted: false,
      waitMs: 5_000,
      limitedBy: 'paused',
    });
    advance(5_000);
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(1))).granted, true);
  });

  test('when the provider reports fewer tokens left than the bucket holds, then the difference is drained, shared first', async () => {
    const { budget, level } = setup();
    await budget.observe(DEFAULT_POOL, { readings: { input: { remaining: 20_000 } } });
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 5_000 });
    await budget.observe(DEFAULT_POOL, { readings: { input: { remaining: 40_000 } } });
    assert.deepEqual(
      level('input'),
      { reserve: 15_000, shared: 5_000 },
      'more remaining at the provider never adds tokens',
    );
  });

  test('when the provider states a lower limit than configured, then the pool shrinks to it', async () => {
    const { budget, advance, level } = setup();
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 30_000 } } });
    assert.deepEqual(level('input'), { reserve: 7_500, shared: 22_500 });
    await budget.reserve(DEFAULT_POOL, 'bulk', call(22_500));
    advance(30_000);
    assert.deepEqual(
      level('input'),
      { reserve: 7_500, shared: 15_000 },
      'refill follows the learned limit: 0.5 token/ms',
    );
  });

  test('when the provider’s limit comes back up, then the pool follows it with the rise its reading proves', async () => {
    const { budget, advance, level } = setup();
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 30_000, remaining: 10_000 } } });
    assert.deepEqual(level('input'), { reserve: 7_500, shared: 2_500 });
    // The provider's bucket gains the 30,000 of the rise and says so in remaining: the pool adopts both.
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 60_000, remaining: 40_000 } } });
    assert.deepEqual(level('input'), { reserve: 7_500, shared: 32_500 });
    advance(10_000);
    assert.deepEqual(level('input'), { reserve: 10_000, shared: 40_000 }, 'refill back at 1 token/ms');
  });

  test('when the limit comes back up but the provider’s bucket did not gain the rise, then its remaining holds the pool down', async () => {
    const { budget, level } = setup();
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 30_000, remaining: 10_000 } } });
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 60_000, remaining: 10_000 } } });
    assert.deepEqual(level('input'), { reserve: 7_500, shared: 2_500 });
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 30_000, remaining: 10_000 } } });
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 60_000 } } });
    assert.deepEqual(level('input'), { reserve: 7_500, shared: 2_500 }, 'a rise without a remaining adds nothing');
  });

  test('when the provider states a limit above the configured one, then the configured limit stands', async () => {
    const { budget, advance, level } = setup();
    await budget.reserve(DEFAULT_POOL, 'bulk', call(45_000));
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 120_000, remaining: 100_000 } } });
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 0 });
    advance(60_000);
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 45_000 });
  });

  test('when the provider’s bucket is overdrawn, then the pool takes the debt and grants nothing until refill pays it', async () => {
    const { budget, advance, level } = setup();
    await budget.observe(DEFAULT_POOL, { readings: { input: { limit: 30_000, remaining: -20_000 } } });
    assert.deepEqual(level('input'), { reserve: 0, shared: -20_000 });
    assert.equal((await budget.reserve(DEFAULT_POOL, 'interactive', call(1_000))).granted, false);
    // 0.5 token/ms: 40 s pays the debt, the reserve taking its quarter of the refill on the way.
    advance(40_000);
    assert.deepEqual(level('input'), { reserve: 5_000, shared: -5_000 });
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(1_000))).granted, false);
    advance(20_000);
    assert.equal((await budget.reserve(DEFAULT_POOL, 'bulk', call(1_000))).granted, true);
  });

  test('when a budget is asked how long a call would wait, then nothing is taken', async () => {
    const { budget, level } = setup();
    assert.deepEqual(await budget.wait(DEFAULT_POOL, 'bulk', call(50_000)), { waitMs: 0 });
    assert.deepEqual(await budget.wait(DEFAULT_POOL, 'bulk', call(1_000, 20_000)), { waitMs: 0 });
    assert.deepEqual(level('input'), { reserve: 15_000, shared: 45_000 });
  });
});
