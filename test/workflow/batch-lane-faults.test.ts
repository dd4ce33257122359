import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import { sampleOrder } from '../support/fake-activities';
import { ORDER_LANE_ALLOWANCE, scriptedOrderLane } from '../support/scripted-order-lane';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

const JOBS = 5;

/** Where an attempt of the lane's activities dies, and is retried as a killed worker's would be. */
type KillPoint = 'before create' | 'between create and record' | 'during the results download' | 'during the answers';

/**
 * Five bulk orders through the real collector and batch workflows, with the attempt that reaches `point` dying
 * there: its object-store write (or its signal) fails, so the step is retried from the start as after a kill.
 */
async function runWithKill(harness: WorkflowHarness, point: KillPoint) {
  const order = scriptedOrderLane(harness.env.client, { maxRequests: JOBS, jobs: JOBS });
  const lane = order.scripted;
  const died = new Error(`the worker died ${point} (injected)`);
  if (point === 'before create') lane.store.failNextPut((key) => key.startsWith('batch-lane/creating/'), died);
  if (point === 'between create and record') lane.store.failNextPut((key) => key.startsWith('batch-lane/batch-ids/'), died);
  if (point === 'during the results download') lane.store.failNextPut((key) => key.startsWith('batch-lane/answers/'), died);
  if (point === 'during the answers') {
    const signalJob = lane.lane.signalJob;
    let signals = 0;
    lane.lane.signalJob = async (workflowId, answer) => {
      if (++signals === 3) throw died;
      return signalJob(workflowId, answer);
    };
  }
  const states = await harness.withWorker(order.activities, async (_start, startOrderScore) => {
    const handles = await Promise.all(Array.from({ length: JOBS }, () => startOrderScore(sampleOrder, ORDER_LANE_ALLOWANCE)));
    return Promise.all(handles.map((handle) => handle.result()));
  });
  return { lane, states, fromBatch: order.fromBatch, liveCalls: order.calls.scoreOrder };
}

describe('the batch lane when a worker dies at each point of a batch', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  for (const point of ['before create', 'between create and record', 'during the results download', 'during the answers'] as const) {
    test(`when the attempt dies ${point}, then every entry is billed once, every job takes its batch answer and no batch is left unread`, async () => {
      const { lane, states, fromBatch, liveCalls } = await runWithKill(harness, point);
      for (const state of states) assert.equal(state.status, 'completed');
      assert.equal(liveCalls, 0, 'no job asked live');
      assert.equal(new Set(fromBatch).size, JOBS, 'each job took its own batch answer');
      const billed = lane.provider.billed();
      assert.equal(billed.size, JOBS);
      for (const [customId, times] of billed) assert.equal(times, 1, `${customId} billed ${times} times`);

      // The scripted provider ends a batch at once, so an unrecorded one is found ended and adopted, never sent again.
      assert.equal(lane.provider.batches.length, 1, 'one batch, created once');
      // The collector reconciles every half hour; here at once: the cancelled orphan is read, then nothing is unread.
      await new MockActivityEnvironment().run(lane.activities.reconcileMessageBatches, { horizonMs: 60 * 60_000 });
      for (const batch of lane.provider.batches) assert.ok(batch.reads >= 1, `batch ${batch.id} was never read`);
    });
  }
});
