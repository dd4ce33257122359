import { Context } from '@temporalio/activity';
import { ModelOutputInvalidError } from '../../common/errors';
import { addUsage } from '../../common/job-types/document/document-job';
import type { Usage } from '../../common/job';
import { validateChunkSummary } from '../../common/validation';
import type { EmbeddingsGateway } from '../../gateway/embeddings/embeddings-call';
import type { ModelGateway } from '../../gateway/model-call';
import type { ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import { usageOfCall } from '../usage';
import { estimateTokens } from './chunk-pages';
import type { ChunkRecord, ProcessDocumentChunkInput, ProcessDocumentChunkResult } from './document-contracts';
import { documentKeys } from './document-keys';
import {
  SUMMARIZE_CHUNK_INSTRUCTION,
  SUMMARIZE_CHUNK_MAX_TOKENS,
  SUMMARIZE_CHUNK_SYSTEM,
  SUMMARIZE_CHUNK_TOOL,
} from './document-prompts';

export interface ProcessDocumentChunkDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  embeddings: EmbeddingsGateway;
  summarizeModel: string;
}

/** The chunk's result as stored, with the usage it cost, so an attempt that finds it can report that usage. */
type StoredChunk = ChunkRecord & { usage: Usage };

/**
 * The map step of one chunk: its embedding (embeddings provider) and its short summary (Messages API), written to
 * S3 as one object. A result already in S3 is an attempt that finished and was never reported (the worker died in
 * between): it is returned as it is, so no call is paid for twice.
 */
export function createProcessDocumentChunk(deps: ProcessDocumentChunkDeps) {
  return async function processDocumentChunk(input: ProcessDocumentChunkInput): Promise<ProcessDocumentChunkResult> {
    const { attempt } = Context.current().info;
    const resultKey = documentKeys.chunkResult(input.prefix, input.index);
    if (await deps.store.exists(resultKey)) {
      const stored = JSON.parse((await deps.store.getBytes(resultKey)).toString('utf8')) as StoredChunk;
      return { index: input.index, usage: stored.usage, reused: true, attempt };
    }
    const text = (await deps.store.getBytes(documentKeys.chunkText(input.prefix, input.index))).toString('utf8');
    return withHeartbeats(async (signal) => {
      const call = { jobId: input.jobId, priority: input.priority, signal };
      const [embedded, summarized] = await Promise.all([
        deps.embeddings.embed({ ...call, inputs: [text], inputType: 'document' }),
        deps.gateway.callTool({
          ...call,
          model: deps.summarizeModel,
          system: SUMMARIZE_CHUNK_SYSTEM,
          documentText: text,
          instruction: SUMMARIZE_CHUNK_INSTRUCTION,
          tool: SUMMARIZE_CHUNK_TOOL,
          maxTokens: SUMMARIZE_CHUNK_MAX_TOKENS,
        }),
      ]);
      const usage = addUsage(usageOfCall(embedded.usage), usageOfCall(summarized.usage));
      const summary = validateChunkSummary(summarized.toolInput);
      if (!summary.ok) {
        throw new ModelOutputInvalidError(`the chunk summary broke its schema: ${summary.errors.slice(0, 3).join('; ')}`, {
          details: { billedUsage: usage },
        });
      }
      const record: StoredChunk = {
        index: input.index,
        firstPage: input.span.firstPage,
        lastPage: input.span.lastPage,
        tokens: estimateTokens(text),
        text,
        summary: summary.value.summary,
        keyTerms: summary.value.keyTerms,
        embedding: embedded.vectors[0] ?? [],
        embeddingModel: embedded.model,
        usage,
      };
      await deps.store.put(resultKey, JSON.stringify(record), { contentType: 'application/json' });
      return { index: input.index, usage, reused: false, attempt };
    });
  };
}
