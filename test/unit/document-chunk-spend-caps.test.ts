import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ProcessDocumentChunkResult } from '../../activities/document/contracts';
import { ChunkTexts } from '../../activities/document/chunk-texts';
import { documentKeys } from '../../activities/document/document-keys';
import { createProcessDocumentChunk } from '../../activities/document/process-document-chunk';
import { TenantSpendCapReachedError } from '../../common/errors';
import type { EmbeddingsGateway, EmbedRequest, EmbedResult } from '../../gateway/embeddings/embeddings-call';
import type { ModelGateway, ToolCallRequest, ToolCallResult } from '../../gateway/model-call';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import { withEmbeddingsSpendCaps } from '../../gateway/spend/spend-capped-embeddings';
import { withSpendCaps } from '../../gateway/spend/spend-capped-gateway';
import type { SpendCaps } from '../../gateway/spend/spend-windows';
import { createTenantSpend } from '../../gateway/spend/tenant-spend';
import { memoryStore } from '../support/memory-store';

const MODEL = 'claude-haiku-4-5';
const EMBEDDINGS_MODEL = 'voyage-3.5';
const PREFIX = 'documents/demo/job';

/** Providers that answer well and count the calls that reached them; the caps in front are the real ones. */
function providers() {
  const calls = { model: 0, embeddings: 0 };
  const model: ModelGateway = {
    async callTool(request: ToolCallRequest): Promise<ToolCallResult> {
      calls.model += 1;
      return {
        toolInput: { summary: 'a chunk about invoices', keyTerms: ['invoice'] },
        stopReason: 'tool_use',
        model: request.model,
        usage: { inputTokens: 500, outputTokens: 50, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: 0.002 },
      };
    },
  };
  const embeddings: EmbeddingsGateway = {
    async embed(request: EmbedRequest): Promise<EmbedResult> {
      calls.embeddings += 1;
      return {
        vectors: request.inputs.map(() => [0.5, 0.25]),
        model: EMBEDDINGS_MODEL,
        usage: { inputTokens: 400, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: 0.00004 },
      };
    },
  };
  return { calls, model, embeddings };
}

describe('a document chunk behind the tenant’s spend caps', () => {
  test('when the summary is refused by the cap but the embedding was paid, then the embedding is kept and the attempt after the raise pays only for the summary', async () => {
    const caps: Record<string, SpendCaps> = { demo: { dailyUsd: 1 } };
    const store = new InProcessSpendStore();
    // The tenant has spent 0.999 of its 1 USD today: an embedding fits, the summary's hold (max_tokens at the output price) does not.
    const earlier = await store.hold('demo', caps.demo ?? {}, 0);
    if (!earlier.granted) throw new Error('the first hold is always granted');
    await store.settle(earlier.hold, 0.999);
    const spend = createTenantSpend({ store, caps });
    const { calls, model, embeddings } = providers();
    const objects = memoryStore();
    // The texts as readDocumentPages stores them now, written by another worker's cache than the step's.
    const texts = ['', '', '', 'Invoice 42 from Acme, due in 30 days. '.repeat(10)];
    const chunkTextsKey = await new ChunkTexts(objects).write(PREFIX, texts);
    const processDocumentChunk = createProcessDocumentChunk({
      store: objects,
      gateway: withSpendCaps(model, { spend, prices: { [MODEL]: { inputPerMTok: 1, outputPerMTok: 5 } } }),
      embeddings: withEmbeddingsSpendCaps(embeddings, { spend, model: EMBEDDINGS_MODEL, pricePerMTok: 0.1 }),
      summarizeModel: MODEL,
      texts: new ChunkTexts(objects),
    });
    const input = { jobId: 'document:demo:job', tenantId: 'demo', priority: 'bulk' as const, prefix: PREFIX, chunkTextsKey, index: 3, span: { firstPage: 7, lastPage: 9 } };

    const refusal = await new MockActivityEnvironment().run(processDocumentChunk, input).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.deepEqual(calls, { model: 0, embeddings: 1 });
    assert.equal((refusal.details?.billedUsage as { costUsd: number } | undefined)?.costUsd, 0.00004, 'the paid embedding is reported once, with the refusal');
    assert.ok(objects.objects.has(documentKeys.chunkPartial(PREFIX, 3)), 'the paid embedding is kept in S3');

    (caps.demo as SpendCaps).dailyUsd = 5;
    const result: ProcessDocumentChunkResult = await new MockActivityEnvironment().run(processDocumentChunk, input);
    assert.deepEqual(calls, { model: 1, embeddings: 1 }, 'the embedding was not paid for twice');
    assert.equal(result.reused, false);
    assert.equal(result.usage.costUsd, 0.002, 'the result reports only what this attempt paid');
    const record = JSON.parse((objects.objects.get(documentKeys.chunkResult(PREFIX, 3)) ?? Buffer.from('{}')).toString('utf8')) as {
      embedding: number[];
      summary: string;
    };
    assert.deepEqual(record.embedding, [0.5, 0.25]);
    assert.equal(record.summary, 'a chunk about invoices');
  });

  test('when the tenant has spent its cap, then neither of the chunk’s calls reaches a provider', async () => {
    const caps: Record<string, SpendCaps> = { demo: { dailyUsd: 1 } };
    const store = new InProcessSpendStore();
    const earlier = await store.hold('demo', caps.demo ?? {}, 0);
    if (!earlier.granted) throw new Error('the first hold is always granted');
    await store.settle(earlier.hold, 1);
    const spend = createTenantSpend({ store, caps });
    const { calls, model, embeddings } = providers();
    const objects = memoryStore();
    objects.objects.set(documentKeys.chunkText(PREFIX, 0), Buffer.from('a short chunk'));
    const processDocumentChunk = createProcessDocumentChunk({
      store: objects,
      gateway: withSpendCaps(model, { spend, prices: { [MODEL]: { inputPerMTok: 1, outputPerMTok: 5 } } }),
      embeddings: withEmbeddingsSpendCaps(embeddings, { spend, model: EMBEDDINGS_MODEL, pricePerMTok: 0.1 }),
      summarizeModel: MODEL,
      texts: new ChunkTexts(objects),
    });
    const input = { jobId: 'document:demo:job', tenantId: 'demo', priority: 'bulk' as const, prefix: PREFIX, index: 0, span: { firstPage: 1, lastPage: 3 } };
    const refusal = await new MockActivityEnvironment().run(processDocumentChunk, input).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.deepEqual(calls, { model: 0, embeddings: 0 });
    assert.equal(objects.objects.has(documentKeys.chunkPartial(PREFIX, 0)), false);
  });
});
