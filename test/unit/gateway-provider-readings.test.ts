import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { providerReadings } from '../../gateway/provider-headers';
import { InputTokenEstimator } from '../../gateway/token-estimate';

describe('what the provider tells the gateway', () => {
  const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);

  test('when rate-limit headers come back without resets, then each bucket’s limit and remaining are read', () => {
    const headers = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '80000',
      'anthropic-ratelimit-input-tokens-remaining': '79200',
      'anthropic-ratelimit-output-tokens-limit': '16000',
      'anthropic-ratelimit-output-tokens-remaining': '15990',
      'anthropic-ratelimit-requests-limit': '1000',
      'anthropic-ratelimit-requests-remaining': '999',
      'anthropic-ratelimit-tokens-remaining': '95000',
    });
    assert.deepEqual(providerReadings(headers, NOW), {
      input: { limit: 80_000, remaining: 79_200 },
      output: { limit: 16_000, remaining: 15_990 },
      requests: { limit: 1_000, remaining: 999 },
    });
  });

  test('when headers are missing or garbled, then nothing is read from them', () => {
    assert.deepEqual(providerReadings(undefined, NOW), {});
    assert.deepEqual(providerReadings(new Headers({ 'anthropic-ratelimit-input-tokens-remaining': 'lots' }), NOW), {});
    assert.deepEqual(
      providerReadings(new Headers({ 'anthropic-ratelimit-input-tokens-reset': 'soon', 'anthropic-ratelimit-input-tokens-limit': '60000' }), NOW),
      { input: { limit: 60_000 } },
    );
  });

  test('when a reset time says the bucket is further from full than remaining does, then the reset bounds remaining', () => {
    // 60,000 a minute = 1,000 a second; full 31 s from now (less 1 s for the rounding) = 30,000 short of full.
    const headers = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '60000',
      'anthropic-ratelimit-input-tokens-remaining': '45000',
      'anthropic-ratelimit-input-tokens-reset': new Date(NOW + 31_000).toISOString(),
    });
    assert.deepEqual(providerReadings(headers, NOW).input, { limit: 60_000, remaining: 30_000 });
  });

  test('when remaining is tighter than the reset, or the reset is past, then remaining stands', () => {
    const headers = new Headers({
      'anthropic-ratelimit-requests-limit': '600',
      'anthropic-ratelimit-requests-remaining': '10',
      'anthropic-ratelimit-requests-reset': new Date(NOW + 2_000).toISOString(),
      'anthropic-ratelimit-output-tokens-limit': '8000',
      'anthropic-ratelimit-output-tokens-reset': new Date(NOW - 5_000).toISOString(),
    });
    const readings = providerReadings(headers, NOW);
    assert.deepEqual(readings.requests, { limit: 600, remaining: 10 });
    assert.deepEqual(readings.output, { limit: 8_000, remaining: 8_000 });
  });

  test('when the answer carries the provider’s date, then the reset is measured on its clock, not the worker’s', () => {
    const headers = new Headers({
      date: new Date(NOW - 3_600_000).toUTCString(),
      'anthropic-ratelimit-input-tokens-limit': '60000',
      'anthropic-ratelimit-input-tokens-reset': new Date(NOW - 3_600_000 + 32_000).toISOString(),
    });
    // 32 s on the provider's clock, less 2 s of rounding (reset and date): 30,000 short of full.
    assert.deepEqual(providerReadings(headers, NOW).input, { limit: 60_000, remaining: 30_000 });
  });

  test('when only the tokens-* set speaks for a bucket, then it bounds the dimension whose limit it repeats', () => {
    const headers = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '60000',
      'anthropic-ratelimit-output-tokens-limit': '10000',
      'anthropic-ratelimit-tokens-limit': '10000',
      'anthropic-ratelimit-tokens-remaining': '4000',
      'anthropic-ratelimit-tokens-reset': new Date(NOW + 37_000).toISOString(),
    });
    const readings = providerReadings(headers, NOW);
    // 10,000 a minute, full in 36 s (after rounding): 6,000 short, so at most 4,000 left either way.
    assert.deepEqual(readings.output, { limit: 10_000, remaining: 4_000 });
    assert.deepEqual(readings.input, { limit: 60_000 });
  });

  test('when the tokens-* limit matches both token buckets, then it is not applied to either', () => {
    const headers = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '10000',
      'anthropic-ratelimit-output-tokens-limit': '10000',
      'anthropic-ratelimit-tokens-limit': '10000',
      'anthropic-ratelimit-tokens-remaining': '1000',
    });
    assert.deepEqual(providerReadings(headers, NOW), { input: { limit: 10_000 }, output: { limit: 10_000 } });
  });

  test('when the provider lowers its limit mid-run and restores it, then each answer’s reading says the limit of its moment', () => {
    const lowered = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '30000',
      'anthropic-ratelimit-input-tokens-remaining': '12000',
      'anthropic-ratelimit-input-tokens-reset': new Date(NOW + 36_000).toISOString(),
    });
    assert.deepEqual(providerReadings(lowered, NOW).input, { limit: 30_000, remaining: 12_000 });
    const restored = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '60000',
      'anthropic-ratelimit-input-tokens-remaining': '42000',
      'anthropic-ratelimit-input-tokens-reset': new Date(NOW + 18_000).toISOString(),
    });
    assert.deepEqual(providerReadings(restored, NOW).input, { limit: 60_000, remaining: 42_000 });
  });

  test('when the reset is more than a minute away, then the reading says the bucket is overdrawn, which remaining cannot', () => {
    // Full in 100 s at 30,000 a minute: 20,000 below zero now (less the second of the reset's rounding).
    const headers = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '30000',
      'anthropic-ratelimit-input-tokens-remaining': '0',
      'anthropic-ratelimit-input-tokens-reset': new Date(NOW + 100_000).toISOString(),
    });
    assert.deepEqual(providerReadings(headers, NOW).input, { limit: 30_000, remaining: -19_500 });
  });

  test('when a reading from reset times reaches the budget, then the pool drains to it and refills from there (controlled clock)', async () => {
    let now = NOW;
    const budget = new InProcessBudget(
      { pools: { '*': { inputTokensPerMinute: 60_000, outputTokensPerMinute: 60_000, requestsPerMinute: 600 } }, interactiveShare: 0 },
      () => now,
    );
    const headers = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '60000',
      'anthropic-ratelimit-input-tokens-reset': new Date(NOW + 41_000).toISOString(),
    });
    await budget.observe('*', { readings: providerReadings(headers, now) });
    assert.equal(budget.snapshot('*').shared.input, 20_000);
    const big = { input: 30_000, output: 1, requests: 1 };
    const refused = await budget.reserve('*', 'interactive', big);
    assert.deepEqual(refused, { granted: false, waitMs: 10_000, limitedBy: 'input' });
    now += 10_000;
    assert.equal((await budget.reserve('*', 'interactive', big)).granted, true);
  });
});

describe('input token estimate', () => {
  test('when nothing has been observed, then the estimate errs high for English text', () => {
    const estimator = new InputTokenEstimator();
    assert.ok(estimator.estimate('m', 4_000) > 4_000 / 4);
  });

  test('when answers report real usage, then the estimate converges on the model’s characters per token', () => {
    const estimator = new InputTokenEstimator();
    for (let call = 0; call < 30; call++) estimator.learn('m', 4_000, 800);
    assert.equal(estimator.estimate('m', 10_000), 2_000);
    assert.ok(estimator.estimate('other-model', 10_000) > 2_000, 'calibration is per model');
  });
});
