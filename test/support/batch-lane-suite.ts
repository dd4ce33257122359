import assert from './assert';
import { afterAll, beforeAll } from '@jest/globals';
import type { BatchLaneAllowance, JobState } from '../../common/job';
import { BATCH_PRICE_FACTOR, costOf } from '../../gateway/pricing';
import { DEFAULT_PRICES } from '../../lib/config/model-prices';
import { FaultHarness } from './fault-harness';

/** Lets a test's bulk job take the lane: a wait far longer than the simulator's batches, no deadline inside the margin. */
export const TEST_LANE_ALLOWANCE: BatchLaneAllowance = { deadlineMarginMs: 60_000, maxWaitMs: 10 * 60_000 };

/** A worker of the bulk queue whose model collectors send a batch `collectWindow` after its first entry and ask about it every second. */
export function laneWorkerEnv(collectWindow: string): Record<string, string> {
  return { WORKER_PRIORITIES: 'bulk', BATCH_COLLECT_WINDOW: collectWindow, BATCH_POLL_INTERVAL: '1s' };
}

/**
 * The hooks of a batch-lane integration suite: a FaultHarness (its own Temporal server) beside the test stack's
 * simulator, whose batches end `batchProcessingMs` after they are created until the suite puts the setting back.
 * With `workerEnv`, one worker starts before the tests. Returns the harness, to be read inside the tests.
 */
export function batchLaneSuite(options: { batchProcessingMs: number; workerEnv?: Record<string, string> }): () => FaultHarness {
  let harness: FaultHarness | undefined;
  let restore: Record<string, number> = {};
  beforeAll(async () => {
    harness = await FaultHarness.create();
    restore = await harness.simulatorConfig({ batchProcessingMs: options.batchProcessingMs });
    if (options.workerEnv) await harness.startWorker(options.workerEnv);
  }, 300_000);
  afterAll(async () => {
    if (Object.keys(restore).length > 0) await harness?.simulatorConfig(restore);
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the batch-lane harness is read before the suite started it');
    return harness;
  };
}

/** A completed job that made one model call, in `lane`, and paid that lane's price for its tokens: billed once. */
export function assertBilledOnceInLane(state: JobState, lane: 'live' | 'batch', model: string): void {
  assert.equal(state.status, 'completed', JSON.stringify(state.error ?? state.status));
  const { usage } = state;
  assert.equal(usage.calls, 1);
  assert.deepEqual(Object.keys(usage.byLane ?? {}), [lane]);
  assert.equal(usage.byLane?.[lane]?.calls, 1);
  const listPrice = costOf(usage, DEFAULT_PRICES[model]);
  const expected = lane === 'batch' ? listPrice * BATCH_PRICE_FACTOR : listPrice;
  assert.ok(Math.abs(usage.costUsd - expected) < 1e-12, `${usage.costUsd} vs ${expected}`);
}
