import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Context } from '@temporalio/activity';
import type { InvoiceActivities } from '../../activities';
import type { Usage } from '../../common/job';
import { fakeActivities, sampleOrder } from '../support/fake-activities';
import { scriptedBatchLane, type ScriptedLaneOptions } from '../support/scripted-batch-lane';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

const PROPOSAL = { score: 0.05, decision: 'approve' as const, reasons: ['returning customer'] };
const BATCH_USAGE: Usage = { inputTokens: 1000, outputTokens: 200, costUsd: 0.003, calls: 1, byLane: { batch: { calls: 1, costUsd: 0.003 } } };
const ALLOWANCE = { batchLane: { deadlineMarginMs: 60_000, maxWaitMs: 120_000 }, priority: 'bulk' as const };

/**
 * order.score's lane with the real collector and batch workflows and their activities (scripted-batch-lane.ts):
 * `fromBatch` records the jobs that took their answer from a batch.
 */
function orderLane(harness: WorkflowHarness, options: ScriptedLaneOptions) {
  const scripted = scriptedBatchLane(harness.env.client, options);
  const fromBatch: string[] = [];
  const fake = fakeActivities({ scores: Array.from({ length: 10 }, () => PROPOSAL) });
  const activities: InvoiceActivities = {
    ...fake.activities,
    ...scripted.activities,
    async scoreOrderFromBatch(input) {
      fromBatch.push(input.customId);
      return { outcome: 'valid', proposal: PROPOSAL, usage: BATCH_USAGE, attempt: Context.current().info.attempt };
    },
  };
  return { activities, scripted, fromBatch, calls: fake.calls };
}

describe('the batch lane’s workflows with scripted activities', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when four bulk jobs enqueue with room for three per batch, then two batches go out and each job gets its own answer; an expired entry goes live', async () => {
    let expired = false;
    const lane = orderLane(harness, {
      maxRequests: 3,
      outcomeOf: () => {
        if (expired) return 'succeeded';
        expired = true;
        return 'expired';
      },
    });
    const states = await harness.withWorker(lane.activities, async (_start, startOrderScore) => {
      const handles = await Promise.all([1, 2, 3, 4].map(() => startOrderScore(sampleOrder, ALLOWANCE)));
      return Promise.all(handles.map((handle) => handle.result()));
    });
    const batches = lane.scripted.batches();
    assert.deepEqual(batches.map((ids) => ids.length).sort(), [1, 3]);
    assert.equal(new Set(batches.flat()).size, 4, 'every entry in exactly one batch');
    for (const state of states) assert.equal(state.status, 'completed');
    assert.equal(lane.fromBatch.length, 3);
    assert.equal(lane.calls.scoreOrder, 1, 'the expired entry’s job asked live');
    assert.equal(states.filter((state) => state.usage.byLane?.batch?.calls === 1).length, 3);
  });

  test('when the batch cannot be submitted, then its jobs take the live path and its holds go back', async () => {
    const lane = orderLane(harness, { maxRequests: 10, failSubmit: true });
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) => (await startOrderScore(sampleOrder, ALLOWANCE)).result());
    assert.equal(state.status, 'completed');
    assert.equal(lane.calls.scoreOrder, 1);
    assert.deepEqual(lane.fromBatch, []);
    assert.equal(lane.scripted.released.length, 1, 'the entry no batch billed gives its spend hold back');
  });

  test('when a batch stays unreadable past its give-up age, then it is cancelled and its job takes the live path', async () => {
    const lane = orderLane(harness, { maxRequests: 10, giveUpAfterMs: 1_000 });
    lane.scripted.lane.batches.status = () => Promise.reject(new Error('the provider cannot say (injected)'));
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) => (await startOrderScore(sampleOrder, ALLOWANCE)).result());
    assert.equal(state.status, 'completed');
    assert.equal(lane.calls.scoreOrder, 1, 'the job asked live');
    assert.equal(lane.scripted.provider.batches[0]?.cancelled, true, 'the given-up batch was cancelled');
  });

  test('when a job is interactive, then it never enqueues', async () => {
    const lane = orderLane(harness, { maxRequests: 10 });
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) =>
      (await startOrderScore(sampleOrder, { ...ALLOWANCE, priority: 'interactive' })).result(),
    );
    assert.equal(state.status, 'completed');
    assert.deepEqual(lane.scripted.batches(), []);
    assert.equal(lane.calls.scoreOrder, 1);
  });
});
