import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Context } from '@temporalio/activity';
import type { InvoiceActivities } from '../../activities';
import { type BatchCollectorInput, type BatchEntryOutcome, batchEntrySignal } from '../../common/batch-lane';
import { ModelRequestInvalidError } from '../../common/errors';
import type { Usage } from '../../common/job';
import { fakeActivities, sampleOrder } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

const PROPOSAL = { score: 0.05, decision: 'approve' as const, reasons: ['returning customer'] };
const BATCH_USAGE: Usage = { inputTokens: 1000, outputTokens: 200, costUsd: 0.003, calls: 1, byLane: { batch: { calls: 1, costUsd: 0.003 } } };
const ALLOWANCE = { batchLane: { deadlineMarginMs: 60_000, maxWaitMs: 120_000 }, priority: 'bulk' as const };

/**
 * The lane's activities, scripted: enqueue signals-with-start a collector of this test's own (on the worker's
 * queue), the provider is a record of the batches submitted, and `outcomeOf` decides each entry's fate.
 */
function laneActivities(harness: WorkflowHarness, options: { maxRequests: number; failSubmit?: boolean; outcomeOf?: (customId: string) => BatchEntryOutcome }) {
  const collectorId = `batch-collector:test-${randomUUID()}`;
  const batches: string[][] = [];
  /** Entries whose spend holds the collector released (never billed). */
  const released: string[] = [];
  const fromBatch: string[] = [];
  const fake = fakeActivities({ scores: Array.from({ length: 10 }, () => PROPOSAL) });
  const activities: InvoiceActivities = {
    ...fake.activities,
    async enqueueScoreOrderBatch(input) {
      const settings = { collectWindowMs: 1_000, maxRequests: options.maxRequests, pollIntervalMs: 300 };
      await harness.env.client.workflow.signalWithStart('batchCollectorWorkflow', {
        workflowId: collectorId,
        taskQueue: Context.current().info.taskQueue,
        args: [{ model: 'test-model', settings } satisfies BatchCollectorInput],
        signal: batchEntrySignal,
        signalArgs: [{ customId: input.customId, replyTo: input.replyTo }],
      });
    },
    async submitMessageBatch(input) {
      if (options.failSubmit) throw new ModelRequestInvalidError('the provider refused the batch');
      batches.push(input.customIds);
      return { batchId: `msgbatch_${batches.length}` };
    },
    async messageBatchHasEnded() {
      return true;
    },
    async releaseBatchEntrySpend({ customIds }: { customIds: string[] }): Promise<void> {
      released.push(...customIds);
    },
    async storeMessageBatchResults({ batchId }) {
      const ids = batches[Number(batchId.split('_')[1]) - 1] ?? [];
      return Object.fromEntries(ids.map((id) => [id, options.outcomeOf?.(id) ?? 'succeeded']));
    },
    async scoreOrderFromBatch(input) {
      fromBatch.push(input.customId);
      return { outcome: 'valid', proposal: PROPOSAL, usage: BATCH_USAGE, attempt: Context.current().info.attempt };
    },
  };
  return { activities, batches, fromBatch, calls: fake.calls, released };
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
    let expired: string | undefined;
    const lane = laneActivities(harness, {
      maxRequests: 3,
      outcomeOf: (customId) => {
        expired ??= customId;
        return customId === expired ? 'expired' : 'succeeded';
      },
    });
    const states = await harness.withWorker(lane.activities, async (_start, startOrderScore) => {
      const handles = await Promise.all([1, 2, 3, 4].map(() => startOrderScore(sampleOrder, ALLOWANCE)));
      return Promise.all(handles.map((handle) => handle.result()));
    });
    assert.deepEqual(lane.batches.map((ids) => ids.length).sort(), [1, 3]);
    assert.equal(new Set(lane.batches.flat()).size, 4, 'every entry in exactly one batch');
    for (const state of states) assert.equal(state.status, 'completed');
    assert.equal(lane.fromBatch.length, 3);
    assert.ok(expired !== undefined && !lane.fromBatch.includes(expired));
    assert.equal(lane.calls.scoreOrder, 1, 'the expired entry’s job asked live');
    assert.equal(states.filter((state) => state.usage.byLane?.batch?.calls === 1).length, 3);
  });

  test('when the batch cannot be submitted, then its jobs take the live path', async () => {
    const lane = laneActivities(harness, { maxRequests: 10, failSubmit: true });
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) => (await startOrderScore(sampleOrder, ALLOWANCE)).result());
    assert.equal(state.status, 'completed');
    assert.equal(lane.calls.scoreOrder, 1);
    assert.deepEqual(lane.fromBatch, []);
    assert.equal(lane.released.length, 1, 'the entry no batch billed gives its spend hold back');
  });

  test('when a job is interactive, then it never enqueues', async () => {
    const lane = laneActivities(harness, { maxRequests: 10 });
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) =>
      (await startOrderScore(sampleOrder, { ...ALLOWANCE, priority: 'interactive' })).result(),
    );
    assert.equal(state.status, 'completed');
    assert.deepEqual(lane.batches, []);
    assert.equal(lane.calls.scoreOrder, 1);
  });
});
