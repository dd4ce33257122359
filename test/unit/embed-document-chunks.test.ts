import assert from '../support/assert';
import { afterEach, beforeEach, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { EmbedDocumentChunksResult, ProcessDocumentChunkResult } from '../../activities/document/contracts';
import { documentKeys } from '../../activities/document/document-keys';
import { createEmbedDocumentChunks } from '../../activities/document/embed-document-chunks';
import { createProcessDocumentChunk } from '../../activities/document/process-document-chunk';
import { ChunkTexts } from '../../activities/document/chunk-texts';
import { readChunkRecords } from '../../activities/document/read-chunk-records';
import { readStoredChunk, writeStoredChunk } from '../../activities/document/stored-chunk';
import { ModelUnavailableError } from '../../common/errors';
import { emptyUsage } from '../../common/job-types/document/document-job';
import { createEmbeddingsGateway } from '../../gateway/embeddings/embeddings-gateway';
import type { ModelGateway } from '../../gateway/model-call';
import { createLogger } from '../../lib/logger';
import { embeddingOf } from '../../local/simulator/embeddings/embedding-vector';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { memoryStore, type MemoryStore } from '../support/memory-store';
import { localTestConfig } from '../support/test-credentials';

const LOG = createLogger('embed-document-chunks-test', 'silent');
const PREFIX = 'documents/demo/job';
const JOB = { jobId: 'document:demo:job', tenantId: 'demo', priority: 'bulk' as const };
const chunkText = (index: number) => `Chunk ${index} speaks of invoices, ledgers and term ${index * 7}. `.repeat(20).trim();

/** A group's chunks as processDocumentChunk stores them when the group embeds them: summarised, no vector yet. */
async function summarisedChunks(store: MemoryStore, count: number): Promise<number[]> {
  const indexes = Array.from({ length: count }, (_, index) => index);
  for (const index of indexes) {
    await writeStoredChunk(store, PREFIX, {
      index,
      firstPage: index + 1,
      lastPage: index + 1,
      tokens: 0,
      text: chunkText(index),
      summary: `chunk ${index}`,
      keyTerms: [],
      usage: { inputTokens: 500, outputTokens: 50, costUsd: 0.002, calls: 1 },
    });
  }
  return indexes;
}

describe('embedDocumentChunks against the simulator', () => {
  let simulator: RunningSimulator;
  /** The texts of each request that left, and whether the transport failed it. */
  let sent: Array<{ inputs: string[]; failed: boolean }>;
  let failNext: ((inputs: string[]) => boolean) | undefined;

  const gateway = () =>
    createEmbeddingsGateway({
      settings: localTestConfig({ EMBEDDINGS_BASE_URL: simulator.url, EMBEDDINGS_DIMENSION: '256' }).embeddings,
      log: LOG,
      // The real simulator behind a transport that can drop one chosen request, as a broken connection would.
      fetch: async (url, init) => {
        const inputs = (JSON.parse(String(init?.body)) as { input: string[] }).input;
        const failed = failNext?.(inputs) ?? false;
        sent.push({ inputs, failed });
        if (failed) {
          failNext = undefined;
          throw new TypeError('fetch failed: connection reset (injected)');
        }
        return fetch(url, init);
      },
    });

  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, embedLatencyBaseMs: 0, embedLatencyPerThousandTokensMs: 0 });
    sent = [];
    failNext = undefined;
  });
  afterEach(() => simulator.close());

  test('when a group of 20 chunks is embedded with 8 inputs a request, then 3 requests carry every chunk once and each record gets its own vector', async () => {
    const store = memoryStore();
    const indexes = await summarisedChunks(store, 20);
    const embed = createEmbedDocumentChunks({ store, embeddings: gateway(), limits: { maxInputs: 8, maxTokens: 320_000 } });

    const result: EmbedDocumentChunksResult = await new MockActivityEnvironment().run(embed, { ...JOB, prefix: PREFIX, indexes });

    const stats = (await (await fetch(`${simulator.url}/_sim/embeddings/stats`)).json()) as { requests: number; tokens: number };
    assert.equal(stats.requests, 3);
    assert.deepEqual(sent.map((request) => request.inputs.length), [8, 8, 4]);
    assert.deepEqual(sent.flatMap((request) => request.inputs), indexes.map(chunkText));
    assert.equal(result.embedded, 20);
    assert.equal(result.usage.calls, 3);
    assert.equal(result.usage.inputTokens, stats.tokens, 'the billed tokens of the three requests, reported once');
    const records = await readChunkRecords(store, PREFIX, 20);
    for (const record of records) assert.deepEqual(record.embedding, embeddingOf(chunkText(record.index), 256), `chunk ${record.index}`);
  });

  test('when the token limit is reached first, then a request holds only as many chunks as fit', async () => {
    const store = memoryStore();
    const indexes = await summarisedChunks(store, 6);
    const tokensEach = Math.ceil(chunkText(5).length / 4);
    const embed = createEmbedDocumentChunks({ store, embeddings: gateway(), limits: { maxInputs: 1_000, maxTokens: 2 * tokensEach } });
    await new MockActivityEnvironment().run(embed, { ...JOB, prefix: PREFIX, indexes });
    assert.deepEqual(sent.map((request) => request.inputs.length), [2, 2, 2]);
  });

  test('when one request fails, then the retry sends only that request’s inputs, and the paid requests are reported once', async () => {
    const store = memoryStore();
    const indexes = await summarisedChunks(store, 20);
    const embed = createEmbedDocumentChunks({ store, embeddings: gateway(), limits: { maxInputs: 8, maxTokens: 320_000 } });
    // The request that carries chunk 9 (the second of three) loses its connection.
    failNext = (inputs) => inputs.includes(chunkText(9));

    const failure = await new MockActivityEnvironment().run(embed, { ...JOB, prefix: PREFIX, indexes }).catch((error: unknown) => error);
    assert.ok(failure instanceof ModelUnavailableError, JSON.stringify(failure, Object.getOwnPropertyNames(failure ?? {})));
    assert.equal(failure.details?.billedUsage && (failure.details.billedUsage as { calls: number }).calls, 2, 'the two answered requests');
    const failed = sent.find((request) => request.failed);
    assert.deepEqual(failed?.inputs, indexes.slice(8, 16).map(chunkText));

    sent = [];
    const retried: EmbedDocumentChunksResult = await new MockActivityEnvironment().run(embed, { ...JOB, prefix: PREFIX, indexes });
    assert.deepEqual(sent.map((request) => request.inputs), [indexes.slice(8, 16).map(chunkText)], 'only the failed request’s inputs');
    assert.equal(retried.usage.calls, 1, 'the earlier requests were reported with the failure');
    const records = await readChunkRecords(store, PREFIX, 20);
    assert.ok(records.every((record) => record.embedding.length === 256));
  });

  test('when a group is embedded, then each chunk’s record is written once, with its vector and the mark that its step was reported', async () => {
    const store = memoryStore();
    const indexes = await summarisedChunks(store, 20);
    const writes: string[] = [];
    const put = store.put.bind(store);
    store.put = (key, body, options) => {
      writes.push(key);
      return put(key, body, options);
    };
    const embed = createEmbedDocumentChunks({ store, embeddings: gateway(), limits: { maxInputs: 8, maxTokens: 320_000 } });
    await new MockActivityEnvironment().run(embed, { ...JOB, prefix: PREFIX, indexes });
    assert.deepEqual([...writes].sort(), indexes.map((index) => documentKeys.chunkResult(PREFIX, index)).sort());
    for (const index of indexes) {
      const stored = await readStoredChunk(store, PREFIX, index);
      assert.equal(stored.usageReported, true, `chunk ${index}`);
      assert.equal(stored.embedding?.length, 256, `chunk ${index}`);
    }
  });

  test('when a request fails, then its chunks’ records still say their step was reported, so a rerun of that step reports nothing again', async () => {
    const store = memoryStore();
    const indexes = await summarisedChunks(store, 20);
    const embed = createEmbedDocumentChunks({ store, embeddings: gateway(), limits: { maxInputs: 8, maxTokens: 320_000 } });
    failNext = (inputs) => inputs.includes(chunkText(9));
    await assert.rejects(new MockActivityEnvironment().run(embed, { ...JOB, prefix: PREFIX, indexes }));
    const unembedded = await readStoredChunk(store, PREFIX, 9);
    assert.equal(unembedded.embedding, undefined);
    assert.equal(unembedded.usageReported, true);
  });

  test('when the step ran, then a rerun of a chunk’s own step finds its record and reports nothing again', async () => {
    const store = memoryStore();
    const indexes = await summarisedChunks(store, 2);
    const embed = createEmbedDocumentChunks({ store, embeddings: gateway(), limits: { maxInputs: 8, maxTokens: 320_000 } });
    await new MockActivityEnvironment().run(embed, { ...JOB, prefix: PREFIX, indexes });
    assert.equal((await readStoredChunk(store, PREFIX, 1)).usageReported, true);
    const unused: ModelGateway = {
      callTool: () => Promise.reject(new Error('a stored chunk calls no model')),
    };
    const processDocumentChunk = createProcessDocumentChunk({
      store,
      gateway: unused,
      embeddings: gateway(),
      summarizeModel: 'claude-haiku-4-5',
      texts: new ChunkTexts(store),
    });
    const rerun: ProcessDocumentChunkResult = await new MockActivityEnvironment().run(processDocumentChunk, {
      ...JOB,
      prefix: PREFIX,
      index: 1,
      span: { firstPage: 2, lastPage: 2 },
      embedInGroup: true,
    });
    assert.equal(rerun.reused, true);
    assert.deepEqual(rerun.usage, emptyUsage());
  });
});
