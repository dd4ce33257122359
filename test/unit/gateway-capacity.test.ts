import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { type CapacityInputs, planCapacity } from '../../gateway/capacity-plan';

/** docs/gateway.md's example: 2 M tokens a minute at 8,000 tokens a job. */
const DESIGN_EXAMPLE: CapacityInputs = {
  limits: { inputTokensPerMinute: 2_000_000, outputTokensPerMinute: 1_000_000, requestsPerMinute: 4_000 },
  interactiveShare: 0.2,
  callsPerJob: 2,
  inputTokensPerCall: 4_000,
  outputTokensPerCall: 500,
  reservedOutputTokensPerCall: 2_000,
  latencyMs: 10_000,
  maxSlotsPerWorker: 50,
  cpuMsPerJob: 300,
  coresPerWorker: 1,
};

describe('capacity plan', () => {
  test('when input tokens bind, then the ceiling is the quota divided by the tokens a job needs', () => {
    const plan = planCapacity(DESIGN_EXAMPLE);
    assert.equal(plan.bindingLimit, 'input tokens');
    assert.equal(plan.ceilingJobsPerMinute, 250);
    assert.equal(plan.interactiveReservedJobsPerMinute, 50);
  });

  test('when calls take ten seconds, then Little’s law sets the calls in flight and the slots follow', () => {
    const plan = planCapacity(DESIGN_EXAMPLE);
    // 250 jobs/min × 2 calls = 8.33 calls/s, × 10 s = 83.3 in flight; a quarter more plus 2 non-model slots.
    assert.ok(Math.abs(plan.modelCallsInFlight - 250 / 3) < 1e-9);
    assert.equal(plan.slotsPerWorker, 50, 'capped per worker');
    assert.equal(plan.workersWorthRunning, Math.ceil((Math.ceil((250 / 3) * 1.25) + 2) / 50));
  });

  test('when calls get slower, then more slots are needed but the ceiling does not move', () => {
    const fast = planCapacity({ ...DESIGN_EXAMPLE, latencyMs: 1_000, maxSlotsPerWorker: 1_000 });
    const slow = planCapacity({ ...DESIGN_EXAMPLE, latencyMs: 4_000, maxSlotsPerWorker: 1_000 });
    assert.equal(slow.ceilingJobsPerMinute, fast.ceilingJobsPerMinute);
    assert.ok(slow.slotsPerWorker > fast.slotsPerWorker * 3);
  });

  test('when max_tokens reservations would not fit in the output bucket, then they bind before the tokens do', () => {
    const plan = planCapacity({ ...DESIGN_EXAMPLE, reservedOutputTokensPerCall: 64_000, latencyMs: 60_000 });
    assert.equal(plan.bindingLimit, 'output reservations in flight');
    // 1,000,000 / 64,000 = 15.6 calls may hold a reservation at once; each holds it a minute.
    assert.ok(Math.abs(plan.ceilingJobsPerMinute - 1_000_000 / 64_000 / 2) < 1e-9);
  });

  test('when text extraction is CPU-heavy, then the CPU decides how many workers are worth running', () => {
    const plan = planCapacity({ ...DESIGN_EXAMPLE, cpuMsPerJob: 2_000, maxSlotsPerWorker: 1_000 });
    // 250 jobs/min = 4.17 jobs/s × 2 s of CPU = 8.3 cores.
    assert.equal(plan.workersWorthRunning, 9);
  });

  test('when the other activities of a job hold slots too, then the plan adds them to the calls in flight', () => {
    const base = planCapacity({ ...DESIGN_EXAMPLE, maxSlotsPerWorker: 1_000 });
    const withOthers = planCapacity({ ...DESIGN_EXAMPLE, maxSlotsPerWorker: 1_000, otherActivityMsPerJob: 2_400 });
    // 250 jobs/min = 4.17 jobs/s × 2.4 s = 10 more activities in flight, a quarter more slots for them.
    assert.equal(
      withOthers.slotsPerWorker - base.slotsPerWorker,
      Math.ceil((250 / 3 + 10) * 1.25) - Math.ceil((250 / 3) * 1.25),
    );
  });
});
