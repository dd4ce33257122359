import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { BatchLaneDeps } from '../../activities/batch-lane/batch-lane-deps';
import { answerBatchEntries, type AnswerBatchEntriesResult } from '../../activities/batch-lane/answer-batch-entries';
import { createCollectorActivities } from '../../activities/batch-lane/collector-activities';
import type { ScoreOrderResult } from '../../activities/order-score/contracts';
import { createScoreOrderBatchActivities } from '../../activities/order-score/score-order-batch';
import { type BatchEntry, batchLaneKeys } from '../../common/batch-lane';
import { messageBatches } from '../../gateway/batch/message-batches';
import { createAnthropicClient } from '../../gateway/model-gateway';
import { Secret } from '../../lib/secret';
import type { ModelGateway } from '../../gateway/model-call';
import { BATCH_PRICE_FACTOR, costOf } from '../../gateway/pricing';
import { DEFAULT_PRICES } from '../../lib/config/model-prices';
import { memoryStore } from '../support/memory-store';
import { laneSteps } from '../support/lane-steps';
import type { Clock } from '../../local/simulator/clock';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { safeOrder } from '../../local/samples/sample-orders';

const MODEL = 'claude-haiku-4-5';

/** A gateway that must not be called: a valid batch answer needs no live call. */
const noLiveCalls: ModelGateway = {
  callTool: () => Promise.reject(new Error('the live path was called')),
};

describe('the batch lane’s activities against the simulator', () => {
  let sim: RunningSimulator;
  let now = Date.parse('2026-12-03T12:00:00Z');
  const clock: Clock = { now: () => now };
  const store = memoryStore();
  const signalled: BatchEntry[] = [];
  let lane: BatchLaneDeps;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, batchProcessingMs: 1_000 }, { clock });
    lane = {
      store,
      batches: messageBatches(
        createAnthropicClient({ apiKey: new Secret('test-key'), baseURL: sim.url, maxRetries: 0, requestTimeoutMs: 30_000 } as Parameters<typeof createAnthropicClient>[0]),
      ),
      prices: DEFAULT_PRICES,
      settings: { collectWindowMs: 1_000, maxRequests: 10, pollIntervalMs: 1_000 },
      signalCollector: async (_model, _settings, entry) => {
        signalled.push(entry);
      },
      signalJob: async () => 'signalled',
    };
  });
  afterAll(async () => {
    await sim?.close();
  });

  test('when a submission is retried (the first attempt’s answer was lost), then no second batch is created, and each job reads its own answer at half the price', async () => {
    const orders = createScoreOrderBatchActivities({ gateway: noLiveCalls, model: MODEL, repairTries: 1, lane });
    const collector = createCollectorActivities(lane);
    const jobs = ['a', 'b'].map((id) => ({ jobId: `order.score:demo:${id}`, tenantId: 'demo', priority: 'bulk' as const, order: safeOrder(id) }));
    for (const [index, job] of jobs.entries()) {
      await orders.enqueueScoreOrderBatch({ ...job, customId: `c${index}`, replyTo: job.jobId });
    }
    assert.deepEqual(signalled.map((entry) => entry.customId), ['c0', 'c1']);

    const steps = laneSteps(lane);
    const first = await steps.submit(MODEL, ['c0', 'c1']);
    const retried = (await new MockActivityEnvironment().run(collector.submitMessageBatch, { model: MODEL, batchKey: first.batchKey, segments: 1 })) as { batchId?: string };
    assert.ok(first.batchId !== undefined);
    assert.equal(retried.batchId, first.batchId);
    const listed = (await (await fetch(`${sim.url}/v1/messages/batches`, { headers: { 'x-api-key': 'k' } })).json()) as { data: unknown[] };
    assert.equal(listed.data.length, 1);
    assert.equal(await store.exists(batchLaneKeys.request('c0')), false, 'a request sent in a batch is not kept');

    assert.equal((await steps.status(first.batchId)).ended, false);
    now += 1_000;
    assert.equal((await steps.status(first.batchId)).ended, true);
    assert.deepEqual(await steps.storeResults(first.batchKey, first.batchId), { c0: 'succeeded', c1: 'succeeded' });

    const scored: ScoreOrderResult = await new MockActivityEnvironment().run(orders.scoreOrderFromBatch, { ...jobs[1]!, customId: 'c1' });
    assert.equal(scored.outcome, 'valid');
    assert.equal(scored.usage.calls, 1);
    assert.equal(scored.usage.byLane?.batch?.calls, 1);
    assert.equal(scored.usage.byLane?.live, undefined);
    const listPrice = costOf(scored.usage, DEFAULT_PRICES[MODEL]);
    assert.ok(listPrice > 0);
    assert.ok(Math.abs(scored.usage.costUsd - listPrice * BATCH_PRICE_FACTOR) < 1e-12);
  });

  test('when the worker has no batch lane, then the lane’s activities refuse without retrying', async () => {
    const orders = createScoreOrderBatchActivities({ gateway: noLiveCalls, model: MODEL, repairTries: 1, lane: undefined });
    const job = { jobId: 'order.score:demo:x', tenantId: 'demo', priority: 'bulk' as const, order: safeOrder('x'), customId: 'cx', replyTo: 'x' };
    const error = await orders.enqueueScoreOrderBatch(job).catch((caught: unknown) => caught);
    assert.ok(error instanceof Error && (error as Error & { retryable?: boolean }).retryable === false);
  });
});

describe('answering a batch’s entries', () => {
  test('when an entry’s job is gone (erased, cancelled, answered live), then its stored answer is deleted and the others stay', async () => {
    const store = memoryStore();
    const batchKey = 'b-gone';
    const entries: BatchEntry[] = [
      { customId: 'kept', replyTo: 'order.score:demo:kept' },
      { customId: 'erased', replyTo: 'order.score:demo:erased' },
    ];
    await store.put(batchLaneKeys.entries(batchKey), JSON.stringify({ entries }), { contentType: 'application/json' });
    await store.put(batchLaneKeys.outcomes(batchKey), JSON.stringify({ kept: 'succeeded', erased: 'succeeded' }), { contentType: 'application/json' });
    for (const entry of entries) await store.put(batchLaneKeys.answer(entry.customId), '{}', { contentType: 'application/json' });
    const lane = {
      store,
      signalJob: async (workflowId: string) => (workflowId.endsWith('erased') ? 'gone' : 'signalled'),
    } as unknown as BatchLaneDeps;

    const result: AnswerBatchEntriesResult = await new MockActivityEnvironment().run(answerBatchEntries, lane, { model: MODEL, batchKey, segments: 1 });
    assert.deepEqual([result.answered, result.gone], [2, 1]);
    assert.equal(await store.exists(batchLaneKeys.answer('erased')), false);
    assert.equal(await store.exists(batchLaneKeys.answer('kept')), true);
  });
});
