import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { gatewayBudgetEnv, jobMarker, submitAtEvenPace, submitConcurrently } from '../../bench/budget-side';

const QUOTA = {
  inputTokensPerMinute: 20_000,
  outputTokensPerMinute: 100_000,
  requestsPerMinute: 1_000,
  latencyMs: 1_500,
};

describe('what the quota and fairness benches share', () => {
  test('when markers are made for thousands of jobs, then none is the start of another (the call log matches substrings)', () => {
    const markers = Array.from({ length: 12_000 }, (_, index) => jobMarker('FAIR', 'run1', 'fair', 'flood', index));
    const sorted = [...markers].sort();
    for (let index = 1; index < sorted.length; index++)
      assert.ok(!(sorted[index] as string).startsWith(sorted[index - 1] as string), sorted[index]);
  });

  test('when a side reserves no interactive share, then the gateway budget leaves the setting out', () => {
    assert.equal(gatewayBudgetEnv(QUOTA).GATEWAY_INTERACTIVE_SHARE, undefined);
    assert.equal(gatewayBudgetEnv(QUOTA, 0.25).GATEWAY_INTERACTIVE_SHARE, '0.25');
    assert.equal(gatewayBudgetEnv(QUOTA).GATEWAY_ITPM, '20000');
    assert.equal(gatewayBudgetEnv(QUOTA).GATEWAY_EXPECTED_LATENCY, '1500ms');
  });

  test('when a backlog is submitted in lanes, then every job goes once, no more than the lanes at a time, with progress at each hundredth', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const progress: number[] = [];
    const jobs = await submitConcurrently(
      250,
      6,
      async (index) => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return index;
      },
      (submitted) => progress.push(submitted),
    );
    assert.deepEqual(
      [...jobs].sort((a, b) => a - b),
      Array.from({ length: 250 }, (_, index) => index),
    );
    assert.equal(mostInFlight, 6);
    assert.deepEqual(progress, [100, 200]);
  });

  test('when arrivals are paced, then they go one after another in order', async () => {
    let inFlight = 0;
    const jobs = await submitAtEvenPace(5, Date.now(), 0, async (index) => {
      assert.equal(inFlight++, 0);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return index;
    });
    assert.deepEqual(jobs, [0, 1, 2, 3, 4]);
  });
});
