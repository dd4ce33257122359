import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { BatchLaneDeps } from '../../activities/batch-lane/batch-lane-deps';
import { createCollectorActivities } from '../../activities/batch-lane/collector-activities';
import { createEnqueueBatchEntry, type EnqueueBatchEntryInput, type FirstCalls } from '../../activities/batch-lane/enqueue-batch-entry';
import { firstCallFromBatch } from '../../activities/batch-lane/first-call-from-batch';
import { firstModelStepCall } from '../../activities/call-model-on-text';
import { CLASSIFY_PROMPT } from '../../activities/invoice/classify-document';
import { scoreOrderCall } from '../../activities/order-score/score-order';
import { createScoreOrderBatchActivities } from '../../activities/order-score/score-order-batch';
import { safeOrder } from '../../local/samples/sample-orders';
import type { ModelStepInput } from '../../activities/step-contracts';
import { batchLaneKeys, type BatchEntry } from '../../common/batch-lane';
import { TenantSpendCapReachedError } from '../../common/errors';
import { messageBatches } from '../../gateway/batch/message-batches';
import { messageParams, promptCharactersOf } from '../../gateway/message-params';
import type { ModelGateway, ToolCallResult } from '../../gateway/model-call';
import { createAnthropicClient } from '../../gateway/model-gateway';
import { BATCH_PRICE_FACTOR } from '../../gateway/pricing';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import { mostItCostsOf } from '../../gateway/spend/spend-capped-gateway';
import { createTenantSpend, type SpendEvent } from '../../gateway/spend/tenant-spend';
import { DEFAULT_PRICES } from '../../lib/config/model-prices';
import { Secret } from '../../lib/secret';
import type { Clock } from '../../local/simulator/clock';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';
import { memoryStore } from '../support/memory-store';
import { laneSteps } from '../support/lane-steps';

/**
 * A batch-lane entry against its tenant's spend caps, with the real in-process spend store and the simulator's
 * Message Batches: held at the batch price when enqueued, once however often the enqueue is retried, refused like a
 * live call when over the cap, and settled once to what the batch billed when its results are read.
 */

const MODEL = 'claude-haiku-4-5';
const PROCESSING_MS = 1_000;
const CAPS = { dailyUsd: 1 };

const noLiveCalls: ModelGateway = { callTool: () => Promise.reject(new Error('the live path was called')) };

describe('a batch-lane entry against its tenant’s spend caps', () => {
  let sim: RunningSimulator;
  let now = Date.parse('2026-12-04T12:00:00Z');
  const clock: Clock = { now: () => now };
  const store = memoryStore();
  const spendStore = new InProcessSpendStore(clock.now);
  const events: SpendEvent[] = [];
  const spend = createTenantSpend({ store: spendStore, caps: { demo: CAPS, capped: CAPS, orders: CAPS }, onEvent: (event) => events.push(event) });
  const signalled: BatchEntry[] = [];
  let lane: BatchLaneDeps;
  const text = SAMPLE_CATALOG.find((sample) => sample.format === 'txt' && sample.expectedOutcome === 'posted');

  const entryOf = (tenantId: string, customId: string): EnqueueBatchEntryInput => ({
    step: 'classifyDocument',
    input: { jobId: `invoice:${tenantId}:${customId}`, tenantId, priority: 'bulk', textKey: 'texts/demo/lane.txt' },
    customId,
    replyTo: `invoice:${tenantId}:${customId}`,
  });
  const classify = (input: ModelStepInput) =>
    firstModelStepCall({ store, gateway: noLiveCalls, model: MODEL, repairTries: 1, lane }, input, CLASSIFY_PROMPT);
  const firstCall = (entry: EnqueueBatchEntryInput) => classify(entry.input as ModelStepInput);
  /** Only the classify step enqueues here… */
  const enqueue = () => createEnqueueBatchEntry(lane, { classifyDocument: classify } as Partial<FirstCalls> as FirstCalls);
  /** …and an order's score, with the first call its live activity sends. */
  const enqueueOrder = () =>
    createEnqueueBatchEntry(lane, { scoreOrder: async (input) => scoreOrderCall({ model: MODEL }, input) } as Partial<FirstCalls> as FirstCalls);

  /** What the tenant has spent and holds, read through a probe the cap must refuse (it adds nothing). */
  async function spentAndHeld(tenantId: string): Promise<number> {
    const probe = await spendStore.hold(tenantId, CAPS, CAPS.dailyUsd);
    assert.ok(!probe.granted, 'the probe is refused while anything is spent or held');
    return probe.spentUsd;
  }

  beforeAll(async () => {
    assert.ok(text?.format === 'txt');
    await store.put('texts/demo/lane.txt', text.text, { contentType: 'text/plain' });
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, batchProcessingMs: PROCESSING_MS, seed: 5 }, { clock });
    lane = {
      store,
      batches: messageBatches(
        createAnthropicClient({ apiKey: new Secret('test-key'), baseURL: sim.url, maxRetries: 0, requestTimeoutMs: 30_000 } as Parameters<typeof createAnthropicClient>[0]),
      ),
      prices: DEFAULT_PRICES,
      settings: { collectWindowMs: 1_000, maxRequests: 10, pollIntervalMs: 1_000 },
      spend,
      signalCollector: async (_model, _settings, entry) => {
        signalled.push(entry);
      },
      signalJob: async () => 'signalled',
    };
  });
  afterAll(async () => {
    await sim?.close();
  });

  test('when an entry is enqueued twice (a retry) and its batch read twice, then it is held once at the batch price and counted once at what it cost', async () => {
    const entry = entryOf('demo', 'spend1');
    const call = await firstCall(entry);
    const mostAtBatchPrice = mostItCostsOf(call, promptCharactersOf(messageParams(call)), DEFAULT_PRICES[MODEL]) * BATCH_PRICE_FACTOR;
    assert.ok(mostAtBatchPrice > 0 && mostAtBatchPrice < CAPS.dailyUsd);

    await enqueue()(entry);
    assert.equal(await spentAndHeld('demo'), mostAtBatchPrice);
    await enqueue()(entry);
    assert.equal(await spentAndHeld('demo'), mostAtBatchPrice, 'the retried enqueue holds nothing more');
    assert.equal(signalled.filter((signal) => signal.customId === 'spend1').length, 2, 'the collector drops the repeat');

    const steps = laneSteps(lane);
    const batch = await steps.submit(MODEL, ['spend1']);
    assert.ok(batch.batchId !== undefined);
    now += PROCESSING_MS;
    assert.equal((await steps.status(batch.batchId)).ended, true);
    await steps.storeResults(batch.batchKey, batch.batchId);
    await steps.storeResults(batch.batchKey, batch.batchId);

    // What the job records for its step (the answer at the batch price) is what the tenant was counted, once.
    const answer = (await new MockActivityEnvironment().run(firstCallFromBatch, lane, { fromBatch: { customId: 'spend1' } }, { model: MODEL, tool: CLASSIFY_PROMPT.tool })) as
      | ToolCallResult
      | undefined;
    assert.ok(answer && answer.usage.costUsd > 0 && answer.usage.costUsd < mostAtBatchPrice);
    const spent = events.filter((event) => event.type === 'spent' && event.tenantId === 'demo');
    assert.deepEqual(spent.map((event) => event.type === 'spent' && event.costUsd), [answer.usage.costUsd]);
    assert.ok(Math.abs((await spentAndHeld('demo')) - answer.usage.costUsd) < 1e-15, 'the hold is gone, the cost stays');
  });

  test('when the tenant has reached its cap, then the enqueue is refused as a live call is, not retried, and nothing goes to the collector', async () => {
    await spend.spend('capped', { mostItCosts: () => 0.5, run: async () => undefined, costOf: () => 1 });
    const before = signalled.length;
    const error = await enqueue()(entryOf('capped', 'spend2')).catch((caught: unknown) => caught);
    assert.ok(error instanceof TenantSpendCapReachedError);
    assert.equal(error.retryable, false);
    assert.equal((error.details?.spendCap as { window: string }).window, 'day');
    assert.equal(signalled.length, before);
    assert.equal(await store.exists(batchLaneKeys.request('spend2')), false);

    // An order's entry holds the same way, through enqueueBatchEntry and through its old pair of activities.
    const order = { jobId: 'order.score:capped:o', tenantId: 'capped', priority: 'bulk' as const, order: safeOrder('o') };
    const refusedOrder = await enqueueOrder()({ step: 'scoreOrder', input: order, customId: 'spend5', replyTo: order.jobId }).catch((caught: unknown) => caught);
    assert.ok(refusedOrder instanceof TenantSpendCapReachedError);
    const orders = createScoreOrderBatchActivities({ gateway: noLiveCalls, model: MODEL, repairTries: 1, lane });
    const refused = await orders.enqueueScoreOrderBatch({ ...order, customId: 'spend4', replyTo: order.jobId }).catch((caught: unknown) => caught);
    assert.ok(refused instanceof TenantSpendCapReachedError);
    assert.equal(signalled.length, before);
  });

  test('when an order enters the lane through enqueueBatchEntry, then its request and its hold are what its old pair of activities stored and held', async () => {
    const order = { jobId: 'order.score:orders:o', tenantId: 'orders', priority: 'bulk' as const, order: safeOrder('o') };
    await enqueueOrder()({ step: 'scoreOrder', input: order, customId: 'order-new', replyTo: order.jobId });
    const heldByNew = await spentAndHeld('orders');
    assert.ok(heldByNew > 0);
    await enqueueOrder()({ step: 'scoreOrder', input: order, customId: 'order-new', replyTo: order.jobId });
    assert.equal(await spentAndHeld('orders'), heldByNew, 'a retried enqueue holds nothing more');

    const orders = createScoreOrderBatchActivities({ gateway: noLiveCalls, model: MODEL, repairTries: 1, lane });
    await orders.enqueueScoreOrderBatch({ ...order, customId: 'order-old', replyTo: order.jobId });
    assert.ok(Math.abs((await spentAndHeld('orders')) - 2 * heldByNew) < 1e-15, 'the old pair held as much');
    const stored = async (customId: string) => JSON.parse((await store.getBytes(batchLaneKeys.request(customId))).toString('utf8')) as unknown;
    assert.deepEqual(await stored('order-new'), await stored('order-old'));
  });

  test('when an entry is never billed (its batch could not be submitted), then answering it errored frees its hold and counts nothing', async () => {
    await enqueue()(entryOf('demo', 'spend3'));
    const withHold = await spentAndHeld('demo');
    const steps = laneSteps(lane);
    const batchKey = 'notsubmitted';
    await createCollectorActivities(lane).writeBatchSegment({ batchKey, index: 0, entries: [{ customId: 'spend3', replyTo: 'job' }] });
    await steps.answerAllErrored(MODEL, batchKey);
    await steps.answerAllErrored(MODEL, batchKey);
    const spentOnIt = events.filter((event) => event.type === 'spent' && event.tenantId === 'demo').slice(1);
    assert.deepEqual(spentOnIt.map((event) => event.type === 'spent' && event.costUsd), [0]);
    assert.ok((await spentAndHeld('demo')) < withHold);
  });
});
