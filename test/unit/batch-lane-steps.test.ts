import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { BatchLaneDeps } from '../../activities/batch-lane/batch-lane-deps';
import { createEnqueueBatchEntry, type EnqueueBatchEntryInput } from '../../activities/batch-lane/enqueue-batch-entry';
import { firstModelStepCall, type ModelStepDeps } from '../../activities/call-model-on-text';
import { CLASSIFY_PROMPT, createClassifyDocument } from '../../activities/invoice/classify-document';
import type { ModelStepInput } from '../../activities/step-contracts';
import type { ProcessDocumentChunkInput } from '../../activities/document/contracts';
import { documentKeys } from '../../activities/document/document-keys';
import { createProcessDocumentChunk, firstChunkCall } from '../../activities/document/process-document-chunk';
import { ChunkTexts } from '../../activities/document/chunk-texts';
import { documentSummaryCall } from '../../activities/document/summarize-document';
import { createExtractInvoiceFields, EXTRACT_PROMPT } from '../../activities/invoice/extract-invoice-fields';
import { createScoreOrder, scoreOrderCall } from '../../activities/order-score/score-order';
import { SCORE_ORDER_TOOL } from '../../activities/order-score/prompts';
import { type ScoreOrderInput } from '../../activities/order-score/contracts';
import type { SummariseTicketBatchInput, WriteTicketDigestInput } from '../../activities/tickets-digest/contracts';
import { SUMMARISE_PROMPT } from '../../activities/tickets-digest/prompts';
import { createSummariseTicketBatch, ticketBatchSummaryCall } from '../../activities/tickets-digest/summarise-ticket-batch';
import { createWriteTicketDigest, ticketDigestNarrativeCall } from '../../activities/tickets-digest/write-ticket-digest';
import type { Ticket } from '../../common/job-types/tickets-digest/ticket';
import { ticketFacts } from '../../common/job-types/tickets-digest/ticket-facts';
import { ticketLine } from '../../common/job-types/tickets-digest/ticket-lines';
import { batchLaneKeys, type BatchEntry } from '../../common/batch-lane';
import type { EmbeddingsGateway } from '../../gateway/embeddings/embeddings-call';
import { messageBatches, type BatchToolCall } from '../../gateway/batch/message-batches';
import { toolCallParams } from '../../gateway/message-params';
import type { ModelGateway, ToolCallRequest, ToolCallResult } from '../../gateway/model-call';
import { createAnthropicClient } from '../../gateway/model-gateway';
import { BATCH_PRICE_FACTOR, costOf } from '../../gateway/pricing';
import { DEFAULT_PRICES } from '../../lib/config/model-prices';
import { Secret } from '../../lib/secret';
import type { Clock } from '../../local/simulator/clock';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';
import { safeOrder } from '../../local/samples/sample-orders';
import { memoryStore } from '../support/memory-store';
import { laneSteps } from '../support/lane-steps';

/**
 * The lane steps' two ends against the simulator's Message Batches and a store holding real bytes: the request
 * enqueueBatchEntry stores is the live step's first request, and the step reads its first answer from the batch at
 * half the price, asking live only for repairs and retried attempts.
 */

const MODEL = 'claude-haiku-4-5';
const PROCESSING_MS = 1_000;

/** A live path that records what it is asked and answers with `answer` (or refuses when there is none). */
function recordingGateway(answer?: (request: ToolCallRequest) => ToolCallResult): ModelGateway & { requests: ToolCallRequest[] } {
  const requests: ToolCallRequest[] = [];
  return {
    requests,
    callTool: async (request) => {
      requests.push(request);
      if (!answer) throw new Error('the live path was called');
      return answer(request);
    },
  };
}

const liveUsage = { inputTokens: 100, outputTokens: 50, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: 0.001 };
const noEmbeddings: EmbeddingsGateway = {
  embed: async (request) => ({ vectors: request.inputs.map(() => [0.1, 0.2]), model: 'test-embed', usage: { ...liveUsage, costUsd: 0 } }),
} as EmbeddingsGateway;

/** Runs an activity as its worker would (attempt 1 unless told), typed by the activity. */
function runActivity<I, R>(activity: (input: I) => Promise<R>, input: I, info: { attempt?: number; heartbeatDetails?: unknown } = {}): Promise<R> {
  return new MockActivityEnvironment(info).run(activity, input) as Promise<R>;
}

/** The Messages params the provider would read: what both lanes must agree on. */
function paramsOf(call: BatchToolCall | ToolCallRequest) {
  const { signal: _signal, ...rest } = call as ToolCallRequest;
  return toolCallParams(rest);
}

describe('the lane steps’ enqueue and first call against the simulator', () => {
  let sim: RunningSimulator;
  let now = Date.parse('2026-12-04T12:00:00Z');
  const clock: Clock = { now: () => now };
  const store = memoryStore();
  const signalled: BatchEntry[] = [];
  let lane: BatchLaneDeps;
  const invoiceText = SAMPLE_CATALOG.find((sample) => sample.format === 'txt' && sample.expectedOutcome === 'posted');
  const job = { jobId: 'invoice:test:lane', tenantId: 'test', priority: 'bulk' as const };
  const modelInput: ModelStepInput = { ...job, textKey: 'texts/test/lane.txt' };

  function stepDeps(gateway: ModelGateway): ModelStepDeps {
    return { store, gateway, model: MODEL, repairTries: 1, lane };
  }

  const sent = new Map<string, Buffer>();
  const sentRequest = (customId: string) => JSON.parse((sent.get(customId) ?? Buffer.from('null')).toString('utf8')) as BatchToolCall;

  /** Enqueues the entries, submits them as one batch, lets it end and stores its results, as the collector does. */
  async function throughBatch(entries: EnqueueBatchEntryInput[]): Promise<void> {
    const enqueue = createEnqueueBatchEntry(lane, {
      classifyDocument: (input) => firstModelStepCall(stepDeps(recordingGateway()), input, CLASSIFY_PROMPT),
      extractInvoiceFields: (input) => firstModelStepCall(stepDeps(recordingGateway()), input, EXTRACT_PROMPT),
      processDocumentChunk: (input) => firstChunkCall({ store, summarizeModel: MODEL, texts: new ChunkTexts(store) }, input),
      summarizeDocument: (input) => documentSummaryCall({ store, summarizeModel: MODEL }, input),
      summariseTicketBatch: (input) => ticketBatchSummaryCall(stepDeps(recordingGateway()), input),
      writeTicketDigest: (input) => ticketDigestNarrativeCall(stepDeps(recordingGateway()), input),
      scoreOrder: async (input) => scoreOrderCall(stepDeps(recordingGateway()), input),
    });
    for (const entry of entries) await enqueue(entry);
    // A request is not kept once its batch is sent: what went out is read before.
    for (const entry of entries) sent.set(entry.customId, await store.getBytes(batchLaneKeys.request(entry.customId)));
    const steps = laneSteps(lane);
    const batch = await steps.submit(MODEL, entries.map((entry) => entry.customId));
    assert.ok(batch.batchId !== undefined);
    now += PROCESSING_MS;
    assert.equal((await steps.status(batch.batchId)).ended, true);
    const outcomes = await steps.storeResults(batch.batchKey, batch.batchId);
    for (const entry of entries) assert.equal(outcomes[entry.customId], 'succeeded');
  }

  beforeAll(async () => {
    assert.ok(invoiceText?.format === 'txt');
    await store.put(modelInput.textKey, invoiceText.text, { contentType: 'text/plain' });
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, batchProcessingMs: PROCESSING_MS, seed: 5 }, { clock });
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

  test('when an invoice’s classify and extract are enqueued, then each stored request is the live step’s first request, and the collector learns its size', async () => {
    for (const [step, prompt, create] of [
      ['classifyDocument', CLASSIFY_PROMPT, createClassifyDocument],
      ['extractInvoiceFields', EXTRACT_PROMPT, createExtractInvoiceFields],
    ] as const) {
      const customId = `same-${step}`;
      const enqueue = createEnqueueBatchEntry(lane, {
        classifyDocument: (input) => firstModelStepCall(stepDeps(recordingGateway()), input, CLASSIFY_PROMPT),
        extractInvoiceFields: (input) => firstModelStepCall(stepDeps(recordingGateway()), input, EXTRACT_PROMPT),
        processDocumentChunk: () => Promise.reject(new Error('not this step')),
        summarizeDocument: () => Promise.reject(new Error('not this step')),
        summariseTicketBatch: () => Promise.reject(new Error('not this step')),
        writeTicketDigest: () => Promise.reject(new Error('not this step')),
        scoreOrder: () => Promise.reject(new Error('not this step')),
      });
      await enqueue({ step, input: modelInput, customId, replyTo: job.jobId });
      const stored = JSON.parse((await store.getBytes(batchLaneKeys.request(customId))).toString('utf8')) as BatchToolCall;
      const live = recordingGateway();
      await runActivity<ModelStepInput, unknown>(create(stepDeps(live)), modelInput).catch(() => undefined);
      assert.equal(live.requests.length, 1);
      assert.deepEqual(paramsOf(stored), paramsOf(live.requests[0]!));
      assert.equal(stored.model, MODEL);
      assert.equal(prompt.tool.name, (paramsOf(stored).tool_choice as { name: string }).name);
      const entry = signalled.find((signal) => signal.customId === customId);
      assert.equal(entry?.requestBytes, (await store.getBytes(batchLaneKeys.request(customId))).length);
    }
  });

  test('when the batch answers classify and extract, then both steps take that answer at half the price and call nothing live; a retry takes it again unless an attempt found it wrong', async () => {
    await throughBatch([
      { step: 'classifyDocument', input: modelInput, customId: 'cls1', replyTo: job.jobId },
      { step: 'extractInvoiceFields', input: modelInput, customId: 'ext1', replyTo: job.jobId },
    ]);
    const noLive = recordingGateway();
    const classified = await runActivity(createClassifyDocument(stepDeps(noLive)), { ...modelInput, fromBatch: { customId: 'cls1' } });
    assert.equal(classified.classification.documentType, 'invoice');
    assert.equal(classified.usage.byLane?.batch?.calls, 1);
    assert.equal(classified.usage.byLane?.live, undefined);
    const listPrice = costOf(classified.usage, DEFAULT_PRICES[MODEL]);
    assert.ok(listPrice > 0);
    assert.ok(Math.abs(classified.usage.costUsd - listPrice * BATCH_PRICE_FACTOR) < 1e-12);

    const extracted = await runActivity(createExtractInvoiceFields(stepDeps(noLive)), { ...modelInput, fromBatch: { customId: 'ext1' } });
    assert.equal(extracted.outcome, 'valid');
    assert.equal(extracted.usage.byLane?.batch?.calls, 1);
    assert.equal(noLive.requests.length, 0);

    // A second attempt after the first was lost (a killed worker, a timeout): the paid answer is taken again.
    const again = await runActivity(createClassifyDocument(stepDeps(noLive)), { ...modelInput, fromBatch: { customId: 'cls1' } }, { attempt: 2 });
    assert.equal(noLive.requests.length, 0);
    assert.equal(again.usage.byLane?.batch?.calls, 1);

    // A second attempt after the first found the answer wrong (its heartbeat says so): a fresh answer, live.
    const live = recordingGateway(() => ({ toolInput: { documentType: 'invoice', confidence: 0.9 }, stopReason: 'tool_use', model: MODEL, usage: liveUsage }));
    const retried = await runActivity(createClassifyDocument(stepDeps(live)), { ...modelInput, fromBatch: { customId: 'cls1' } }, {
      attempt: 2,
      heartbeatDetails: { answerRefused: true },
    });
    assert.equal(live.requests.length, 1);
    assert.equal(retried.usage.byLane?.live?.calls, 1);
    assert.equal(retried.usage.byLane?.batch, undefined);
  });

  test('when the batch’s answer fails the schema, then the repair goes live with the validator’s errors and both calls are counted in their lanes', async () => {
    const customId = 'bad-extract';
    const invalid = {
      id: 'msg_batch_bad',
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'tool_use', id: 'toolu_1', name: EXTRACT_PROMPT.tool.name, input: { invoice: { totalAmount: 'lots' } } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1_000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    await store.put(batchLaneKeys.answer(customId), JSON.stringify(invalid), { contentType: 'application/json' });
    const repaired = await runActivity(
      createExtractInvoiceFields(stepDeps(recordingGateway())),
      { ...modelInput, fromBatch: { customId: 'ext1' } },
    );
    assert.equal(repaired.outcome, 'valid', 'the valid batch answer stands');
    const valid = repaired.outcome === 'valid' ? repaired.extraction : undefined;
    const live = recordingGateway(() => ({ toolInput: valid, stopReason: 'tool_use', model: MODEL, usage: liveUsage }));
    const result = await runActivity(createExtractInvoiceFields(stepDeps(live)), { ...modelInput, fromBatch: { customId } });
    assert.equal(result.outcome, 'valid');
    assert.equal(live.requests.length, 1);
    assert.deepEqual(live.requests[0]?.repair?.previousInput, invalid.content[0]!.input);
    assert.ok((live.requests[0]?.repair?.errors.length ?? 0) > 0);
    assert.equal(result.usage.byLane?.batch?.calls, 1);
    assert.equal(result.usage.byLane?.live?.calls, 1);
  });

  test('when a document’s chunk and reduce go through the batch, then the stored requests are the live ones and the chunk’s summary comes from the batch while its embedding is live', async () => {
    const prefix = documentKeys.prefix('test', 'document:test:lane');
    const chunkText = 'The Northwind board approved a new warehouse in Rotterdam. Freight costs fell by 12 percent in the third quarter.';
    await store.put(documentKeys.chunkText(prefix, 0), chunkText, { contentType: 'text/plain' });
    const chunk: ProcessDocumentChunkInput = { ...job, jobId: 'document:test:lane', prefix, index: 0, span: { firstPage: 1, lastPage: 2 } };
    await throughBatch([{ step: 'processDocumentChunk', input: chunk, customId: 'chunk0', replyTo: chunk.jobId }]);

    const live = recordingGateway();
    const process = createProcessDocumentChunk({ store, gateway: live, embeddings: noEmbeddings, summarizeModel: MODEL, texts: new ChunkTexts(store), lane });
    // The live path's first request, recorded and refused, is the stored one.
    await runActivity(process, chunk).catch(() => undefined);
    const stored = sentRequest('chunk0');
    assert.deepEqual(paramsOf(stored), paramsOf(live.requests[0]!));

    const done = await runActivity(process, { ...chunk, fromBatch: { customId: 'chunk0' } });
    assert.equal(live.requests.length, 1, 'no live call for the batch-answered chunk');
    assert.equal(done.usage.byLane?.batch?.calls, 1);
    assert.equal(done.usage.byLane?.live?.calls, 1, 'the embedding');
    const record = JSON.parse((await store.getBytes(documentKeys.chunkResult(prefix, 0))).toString('utf8')) as { summary: string };
    assert.ok(record.summary.length > 0);

    const reduceInput = { ...job, jobId: chunk.jobId, prefix, chunks: 1, pages: 2 };
    await throughBatch([{ step: 'summarizeDocument', input: reduceInput, customId: 'reduce0', replyTo: chunk.jobId }]);
    const reduceStored = sentRequest('reduce0');
    assert.deepEqual(paramsOf(reduceStored), paramsOf(await documentSummaryCall({ store, summarizeModel: MODEL }, reduceInput)));
    assert.ok(reduceStored.documentText.includes(record.summary.slice(0, 40)));
  });
  test('when an order is scored through the batch, then the stored request is the live first request, and scoreOrder takes the answer at half the price; a retried attempt asks live', async () => {
    const order: ScoreOrderInput = { ...job, jobId: 'order.score:test:lane', order: safeOrder('lane') };
    await throughBatch([{ step: 'scoreOrder', input: order, customId: 'order1', replyTo: order.jobId }]);
    const refused = recordingGateway();
    await runActivity(createScoreOrder(stepDeps(refused)), order).catch(() => undefined);
    assert.equal(refused.requests.length, 1);
    // As the provider reads both: JSON (the live request's TypeBox schema carries symbols that JSON drops).
    assert.deepEqual(paramsOf(sentRequest('order1')), JSON.parse(JSON.stringify(paramsOf(refused.requests[0]!))));
    assert.equal((paramsOf(sentRequest('order1')).tool_choice as { name: string }).name, SCORE_ORDER_TOOL.name);

    const noLive = recordingGateway();
    const scored = await runActivity(createScoreOrder(stepDeps(noLive)), { ...order, fromBatch: { customId: 'order1' } });
    assert.equal(noLive.requests.length, 0);
    assert.equal(scored.outcome, 'valid');
    assert.equal(scored.usage.byLane?.batch?.calls, 1);
    assert.equal(scored.usage.byLane?.live, undefined);
    assert.ok(Math.abs(scored.usage.costUsd - costOf(scored.usage, DEFAULT_PRICES[MODEL]) * BATCH_PRICE_FACTOR) < 1e-12);

    const proposal = scored.outcome === 'valid' ? scored.proposal : undefined;
    const live = recordingGateway(() => ({ toolInput: proposal, stopReason: 'tool_use', model: MODEL, usage: liveUsage }));
    // A retry after an attempt found the answer wrong asks live (a retry after a lost attempt takes it again).
    const retried = await runActivity(createScoreOrder(stepDeps(live)), { ...order, fromBatch: { customId: 'order1' } }, {
      attempt: 2,
      heartbeatDetails: { answerRefused: true },
    });
    assert.equal(live.requests.length, 1);
    assert.equal(retried.usage.byLane?.live?.calls, 1);
    assert.equal(retried.usage.byLane?.batch, undefined);
  });

  describe('a tickets digest', () => {
    const tickets: Ticket[] = [
      { id: 'T-1', createdAt: '2026-12-03T08:00:00Z', priority: 'urgent', subject: 'Cannot log in', body: 'The login page loops since this morning.', channel: 'email' },
      { id: 'T-2', createdAt: '2026-12-03T09:00:00Z', priority: 'normal', subject: 'Invoice charged twice', body: 'My card was billed twice for December.', channel: 'chat' },
      { id: 'T-3', createdAt: '2026-12-03T10:00:00Z', priority: 'low', subject: 'Parcel late', body: 'The shipping tracker has not moved for a week.', channel: 'email' },
    ];
    const digestJob = { ...job, jobId: 'tickets.digest:test:lane' };
    const batch: SummariseTicketBatchInput = { ...digestJob, batchKey: 'digests/test/lane/batch-0000.txt' };
    const factsKey = 'digests/test/lane/facts.json';

    beforeAll(async () => {
      await store.put(batch.batchKey, tickets.map(ticketLine).join('\n'), { contentType: 'text/plain' });
      await store.put(factsKey, JSON.stringify(ticketFacts(tickets)), { contentType: 'application/json' });
    });

    test('when a batch summary is enqueued, then the stored request is the live step’s first request', async () => {
      await throughBatch([{ step: 'summariseTicketBatch', input: batch, customId: 'tickets-same', replyTo: digestJob.jobId }]);
      const stored = sentRequest('tickets-same');
      const live = recordingGateway();
      await runActivity(createSummariseTicketBatch(stepDeps(live)), batch).catch(() => undefined);
      assert.equal(live.requests.length, 1);
      assert.deepEqual(paramsOf(stored), paramsOf(live.requests[0]!));
      assert.equal((paramsOf(stored).tool_choice as { name: string }).name, SUMMARISE_PROMPT.tool.name);
      assert.ok(stored.documentText.includes('T-2'), 'the batch’s ticket lines are the document');
    });

    test('when the batch answers a batch summary and the narrative, then both steps take that answer at half the price and call nothing live', async () => {
      await throughBatch([{ step: 'summariseTicketBatch', input: batch, customId: 'tickets-sum', replyTo: digestJob.jobId }]);
      const noLive = recordingGateway();
      const summarised = await runActivity(createSummariseTicketBatch(stepDeps(noLive)), { ...batch, fromBatch: { customId: 'tickets-sum' } });
      assert.equal(noLive.requests.length, 0);
      assert.equal(summarised.usage.byLane?.batch?.calls, 1);
      assert.equal(summarised.usage.byLane?.live, undefined);
      const listPrice = costOf(summarised.usage, DEFAULT_PRICES[MODEL]);
      assert.ok(listPrice > 0);
      assert.ok(Math.abs(summarised.usage.costUsd - listPrice * BATCH_PRICE_FACTOR) < 1e-12);
      const summary = JSON.parse((await store.getBytes(summarised.summaryKey)).toString('utf8')) as { urgent: Array<{ id: string }> };
      assert.deepEqual(summary.urgent.map((ticket) => ticket.id), ['T-1']);

      const reduce: WriteTicketDigestInput = { ...digestJob, factsKey, summaryKeys: [summarised.summaryKey] };
      await throughBatch([{ step: 'writeTicketDigest', input: reduce, customId: 'tickets-narrative', replyTo: digestJob.jobId }]);
      const stored = sentRequest('tickets-narrative');
      // The live path's first request, recorded and refused, is the stored one.
      const refused = recordingGateway();
      await runActivity(createWriteTicketDigest(stepDeps(refused)), reduce).catch(() => undefined);
      assert.equal(refused.requests.length, 1);
      assert.deepEqual(paramsOf(stored), paramsOf(refused.requests[0]!));

      const written = await runActivity(createWriteTicketDigest(stepDeps(noLive)), { ...reduce, fromBatch: { customId: 'tickets-narrative' } });
      assert.equal(noLive.requests.length, 0);
      assert.equal(written.usage.byLane?.batch?.calls, 1);
      assert.ok(Math.abs(written.usage.costUsd - costOf(written.usage, DEFAULT_PRICES[MODEL]) * BATCH_PRICE_FACTOR) < 1e-12);
      assert.ok(written.digest.narrative.length > 0);
      assert.equal(written.digest.ticketCount, 3);
      assert.equal(written.digest.urgentCount, 1);

      // A second attempt of the reduce after one found the answer wrong is for a fresh answer: it asks live.
      const live = recordingGateway(() => ({ toolInput: { narrative: 'Three tickets; one login outage needs a person today.' }, stopReason: 'tool_use', model: MODEL, usage: liveUsage }));
      const retried = await runActivity(createWriteTicketDigest(stepDeps(live)), { ...reduce, fromBatch: { customId: 'tickets-narrative' } }, {
        attempt: 2,
        heartbeatDetails: { answerRefused: true },
      });
      assert.equal(live.requests.length, 1);
      assert.equal(retried.usage.byLane?.live?.calls, 1);
      assert.equal(retried.usage.byLane?.batch, undefined);
    });
  });
});
