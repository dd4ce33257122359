import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import type { ActivitySlotInfo, SlotPermit, SlotReserveContext } from '@temporalio/worker';
import { planCapacity, MODEL_CALLS_PER_JOB } from '../../gateway/capacity-plan';
import { gatewayFromConfig, type WiredGateway } from '../../gateway/gateway-from-config';
import { createLogger } from '../../lib/logger';

/**
 * gatewayFromConfig().activitySlots(priority) is what the worker process hands createWorkers (workers/main.ts →
 * workers/create-workers.ts, as the tuner's activityTaskSlotSupplier): these tests read the slot count it decides
 * from the supplier itself.
 */

const CONTEXT = {
  slotType: 'activity',
  taskQueue: 'slowlane-bulk',
  workerIdentity: 'test',
  workerBuildId: '',
  isSticky: false,
} as SlotReserveContext;
const LOG = createLogger('gateway-activity-slots-test', 'silent');

/** Lets every promise that is ready settle; a reservation still pending after this waits for a release. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * How many activities the worker may run at once. A fixed-size supplier says so; a paced one is asked for
 * permits until one waits. Each permit runs an activity that never calls the model, so it claims no budget and
 * only the slot count can make a reservation wait.
 */
async function slotCount(wired: WiredGateway, priority: 'interactive' | 'bulk' = 'bulk'): Promise<number> {
  const slots = wired.activitySlots(priority);
  if (slots.type === 'fixed-size') return slots.numSlots;
  const permits: SlotPermit[] = [];
  for (;;) {
    assert.ok(permits.length <= 1_000, 'slots kept coming: no limit');
    const abort = new AbortController();
    let granted: SlotPermit | undefined;
    const reservation = slots.reserveSlot(CONTEXT, abort.signal).then((permit) => (granted = permit));
    await settle();
    if (!granted) {
      assert.equal(slots.stats().used, permits.length);
      abort.abort();
      await assert.rejects(reservation, { name: 'AbortError' });
      // A release frees exactly one more.
      const release = permits.pop() as SlotPermit;
      slots.releaseSlot({ permit: release });
      const again = await slots.reserveSlot(CONTEXT, new AbortController().signal);
      assert.ok(again);
      return permits.length + 1;
    }
    slots.markSlotUsed({
      permit: granted,
      slotInfo: { type: 'activity', activityType: 'extractText' } as ActivitySlotInfo,
    });
    permits.push(granted);
  }
}

async function withGateway<T>(env: Record<string, string>, use: (wired: WiredGateway) => Promise<T>): Promise<T> {
  const wired = gatewayFromConfig(localTestConfig(env), LOG);
  try {
    return await use(wired);
  } finally {
    await wired.close();
  }
}

/** A tier small enough that the plan asks for a handful of slots: 60,000 input tokens a minute, 6,000 a job. */
const SMALL_TIER = {
  GATEWAY_ITPM: '60000',
  GATEWAY_EXPECTED_INPUT_TOKENS: '3000',
  GATEWAY_EXPECTED_OUTPUT_TOKENS: '1000',
  GATEWAY_EXPECTED_LATENCY: '8s',
};

/** The plan a worker makes before it has seen a call: the configured expectation, nothing else in flight. */
function plannedBeforeAnyCall(env: Record<string, string>): number {
  const config = localTestConfig(env);
  const expected = config.gateway.expected;
  return planCapacity({
    limits: config.gateway.pools['*'] as NonNullable<(typeof config.gateway.pools)[string]>,
    interactiveShare: config.gateway.interactiveShare,
    callsPerJob: MODEL_CALLS_PER_JOB,
    inputTokensPerCall: expected.inputTokensPerCall,
    outputTokensPerCall: expected.outputTokensPerCall,
    reservedOutputTokensPerCall: expected.outputTokensPerCall,
    latencyMs: expected.latencyMs,
    otherActivityMsPerJob: 0,
    maxSlotsPerWorker: config.gateway.maxSlotsPerWorker,
    cpuMsPerJob: 0,
    coresPerWorker: 1,
  }).slotsPerWorker;
}

describe('the activity slots a worker runs with', () => {
  test('when WORKER_MAX_CONCURRENT_ACTIVITIES is set, then each queue’s worker gets exactly that many slots, above the plan and its cap', async () => {
    const env = { ...SMALL_TIER, WORKER_MAX_CONCURRENT_ACTIVITIES: '9', GATEWAY_MAX_SLOTS_PER_WORKER: '4' };
    assert.ok(plannedBeforeAnyCall(env) < 9, 'the plan alone would give fewer');
    await withGateway(env, async (wired) => {
      assert.equal(await slotCount(wired, 'bulk'), 9);
      assert.equal(await slotCount(wired, 'interactive'), 9);
    });
  });

  test('when no override is set, then the slots are the capacity plan’s for the budget', async () => {
    const expected = plannedBeforeAnyCall(SMALL_TIER);
    assert.notEqual(expected, 20, 'distinct from the unpaced default');
    await withGateway(SMALL_TIER, async (wired) => assert.equal(await slotCount(wired), expected));
  });

  test('when the provider limits are larger, then the derived slots grow with them', async () => {
    const larger = { ...SMALL_TIER, GATEWAY_ITPM: '240000' };
    const small = await withGateway(SMALL_TIER, (wired) => slotCount(wired));
    const big = await withGateway(larger, (wired) => slotCount(wired));
    assert.equal(big, plannedBeforeAnyCall(larger));
    assert.ok(big > small, `${big} slots for 4× the tokens, ${small} before`);
  });

  test('when GATEWAY_MAX_SLOTS_PER_WORKER is below the plan and nothing overrides it, then the cap holds', async () => {
    await withGateway({ ...SMALL_TIER, GATEWAY_ITPM: '240000', GATEWAY_MAX_SLOTS_PER_WORKER: '4' }, async (wired) =>
      assert.equal(await slotCount(wired), 4),
    );
  });

  test('when GATEWAY_BUDGET=off, then the slots are a fixed 20, or the override when one is set', async () => {
    await withGateway({ ...SMALL_TIER, GATEWAY_BUDGET: 'off' }, async (wired) => {
      assert.equal(wired.budget, undefined);
      assert.deepEqual(wired.activitySlots('bulk'), { type: 'fixed-size', numSlots: 20 });
    });
    await withGateway({ ...SMALL_TIER, GATEWAY_BUDGET: 'off', WORKER_MAX_CONCURRENT_ACTIVITIES: '3' }, async (wired) =>
      assert.deepEqual(wired.activitySlots('interactive'), { type: 'fixed-size', numSlots: 3 }),
    );
  });
});
