import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ChunkTexts } from '../../activities/document/chunk-texts';
import type { ProcessDocumentChunksInput, ProcessDocumentChunksResult } from '../../activities/document/contracts';
import { createProcessDocumentChunk } from '../../activities/document/process-document-chunk';
import { createProcessDocumentChunks } from '../../activities/document/process-document-chunks';
import { ModelRequestInvalidError, ModelUnavailableError, TenantSpendCapReachedError } from '../../common/errors';
import type { EmbeddingsGateway } from '../../gateway/embeddings/embeddings-call';
import type { ModelGateway, ToolCallRequest, ToolCallResult } from '../../gateway/model-call';
import { memoryStore } from '../support/memory-store';

const MODEL = 'claude-haiku-4-5';
const PREFIX = 'documents/demo/job';
const CHUNKS = 4;
const spendCap = { window: 'day', capUsd: 5, spentUsd: 5, resumesAt: '2026-12-08T00:00:00.000Z' };

type Fault = 'unavailable' | 'invalid' | 'capped';

/**
 * The real chunk step (S3 records in memory) under the real group step, with a model that answers each chunk (found
 * by its text) or fails it once with the fault given: what reached the provider is counted, and the most in flight.
 */
async function groupStep(faults: Map<number, Fault>) {
  const calls: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const model: ModelGateway = {
    async callTool(request: ToolCallRequest): Promise<ToolCallResult> {
      const index = Number(/chunk (\d+) text/.exec(request.documentText)?.[1]);
      const fault = faults.get(index);
      faults.delete(index);
      if (fault === 'capped') throw new TenantSpendCapReachedError('tenant demo has spent its daily cap', { details: { spendCap } });
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      calls.push(index);
      if (fault === 'unavailable') throw new ModelUnavailableError('provider answered 529');
      if (fault === 'invalid') throw new ModelRequestInvalidError('provider answered 400', { details: { billedUsage: { inputTokens: 1, outputTokens: 0, costUsd: 0.5, calls: 1 } } });
      return {
        toolInput: { summary: `chunk ${index} in short`, keyTerms: ['invoice'] },
        stopReason: 'tool_use',
        model: request.model,
        usage: { inputTokens: 500, outputTokens: 50, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: 0.002 },
      };
    },
  };
  const embeddings: EmbeddingsGateway = {
    embed: () => Promise.reject(new Error('the group step stores chunks without vectors: its group embeds them')),
  };
  const store = memoryStore();
  // Each chunk's own lookups of its records, which the group step's one listing stands in for.
  const lookups: string[] = [];
  const exists = store.exists.bind(store);
  store.exists = (key) => (lookups.push(key), exists(key));
  const texts = Array.from({ length: CHUNKS }, (_, index) => `chunk ${index} text about an invoice. `.repeat(5));
  const chunkTextsKey = await new ChunkTexts(store).write(PREFIX, texts);
  const step = createProcessDocumentChunks(
    createProcessDocumentChunk({ store, gateway: model, embeddings, summarizeModel: MODEL, texts: new ChunkTexts(store) }),
    store,
  );
  const input = (parallelChunks: number): ProcessDocumentChunksInput => ({
    jobId: 'document:demo:job',
    tenantId: 'demo',
    priority: 'bulk',
    prefix: PREFIX,
    chunkTextsKey,
    chunks: Array.from({ length: CHUNKS }, (_, index) => ({ index, span: { firstPage: index + 1, lastPage: index + 1 } })),
    parallelChunks,
    maximumAttempts: 3,
  });
  const run = (attempt: number, parallelChunks = 2): Promise<ProcessDocumentChunksResult> =>
    new MockActivityEnvironment({ attempt }).run(step, input(parallelChunks));
  return { calls, run, lookups, mostInFlight: () => mostInFlight };
}

describe('a chunk group summarised in one step (processDocumentChunks)', () => {
  test('when every chunk answers, then all are done, their cost summed, never more in flight than the group allows', async () => {
    const group = await groupStep(new Map());
    const result = await group.run(1);
    assert.deepEqual(result.done, [0, 1, 2, 3]);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.waiting, []);
    assert.equal(result.usage.calls, CHUNKS);
    assert.equal(group.mostInFlight(), 2);
    assert.deepEqual(group.lookups, [], 'one listing, no lookup a chunk');
  });

  test('when a chunk fails retryably before the last attempt, then the step throws that error, and the next attempt pays only for that chunk', async () => {
    const group = await groupStep(new Map([[2, 'unavailable']]));
    await assert.rejects(group.run(1), ModelUnavailableError);
    assert.deepEqual([...group.calls].sort(), [0, 1, 2, 3]);
    const retried = await group.run(2);
    assert.deepEqual(retried.done, [0, 1, 2, 3]);
    assert.deepEqual(group.calls.slice(CHUNKS), [2], 'the stored chunks are reused');
    // Nothing of the first attempt was reported: the retry reports all four chunks' cost, once.
    assert.equal(retried.usage.calls, CHUNKS);
  });

  test('when a chunk fails retryably on the last attempt, or for good, then the step reports each failed chunk with its billed cost and the rest done', async () => {
    const last = await (await groupStep(new Map([[1, 'unavailable']]))).run(3);
    assert.deepEqual(last.done, [0, 2, 3]);
    assert.deepEqual(last.failed.map(({ index, type, retryable }) => ({ index, type, retryable })), [
      { index: 1, type: 'ModelUnavailableError', retryable: true },
    ]);

    // A failure no retry helps is reported at once, and a retryable one beside it with it (a retry would pay for the first again).
    const mixed = await (await groupStep(new Map<number, Fault>([[0, 'invalid'], [3, 'unavailable']]))).run(1);
    assert.deepEqual(mixed.done, [1, 2]);
    assert.deepEqual(mixed.failed.map(({ index, type, retryable, billedUsage }) => ({ index, type, retryable, billed: billedUsage?.costUsd })), [
      { index: 0, type: 'ModelRequestInvalidError', retryable: false, billed: 0.5 },
      { index: 3, type: 'ModelUnavailableError', retryable: true, billed: undefined },
    ]);
  });

  test('when a chunk is refused by the tenant’s spend cap, then no chunk starts after it, and the refused and unstarted chunks wait', async () => {
    const group = await groupStep(new Map([[1, 'capped']]));
    const result = await group.run(1, 1);
    assert.deepEqual(result.done, [0]);
    assert.deepEqual(result.waiting, [1, 2, 3]);
    assert.deepEqual(result.spendCap, spendCap);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(group.calls, [0], 'no call reached the provider after the refusal');
  });
});
