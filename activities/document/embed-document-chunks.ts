import { Context } from '@temporalio/activity';
import { SlowlaneError } from '../../common/errors';
import type { Usage } from '../../common/job';
import { emptyUsage } from '../../common/job-types/document/document-job';
import { addUsage } from '../../common/usage-sum';
import type { EmbeddingsGateway } from '../../gateway/embeddings/embeddings-call';
import type { ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import { usageOfCall } from '../usage';
import { withBilledUsage } from './chunk-partial';
import { estimateTokens } from './chunk-pages';
import type { EmbedDocumentChunksInput, EmbedDocumentChunksResult } from './contracts';
import { mapBounded } from './document-keys';
import { type EmbeddingRequestLimits, packEmbeddingRequests } from './pack-embedding-requests';
import { textToEmbed } from './process-document-chunk';
import { type StoredChunk, readStoredChunk, writeStoredChunk } from './stored-chunk';

export interface EmbedDocumentChunksDeps {
  store: ObjectStore;
  embeddings: EmbeddingsGateway;
  limits: EmbeddingRequestLimits;
}

/** Reads and writes of chunk records at once; the requests of one group are few, and go out together. */
const PARALLEL_OBJECTS = 16;

type RequestOutcome = { ok: true; chunks: StoredChunk[]; usage: Usage } | { ok: false; error: unknown };

/**
 * The embeddings of a group's chunks, in as few requests as the provider's per-request limits allow, each under the
 * embeddings budget like any call (the gateway reserves a request's total tokens). Each answered request's vectors
 * are written at once into its chunks' records, so when a request fails the step's retry sends only the chunks
 * still without a vector: a failed request retries only its own inputs, never those another request paid for.
 */
export function createEmbedDocumentChunks(deps: EmbedDocumentChunksDeps) {
  return async function embedDocumentChunks(input: EmbedDocumentChunksInput): Promise<EmbedDocumentChunksResult> {
    const { attempt } = Context.current().info;
    return withHeartbeats(async (signal) => {
      const chunks = await mapBounded(input.indexes, PARALLEL_OBJECTS, (index) => readStoredChunk(deps.store, input.prefix, index));
      // The workflow holds these chunks' step results: a rerun of their own step that finds the record must not
      // report them again. The mark rides on the write that adds the vector, or on the failure's (markReported),
      // so a chunk's record is written once per embedding instead of twice.
      const unmarked = chunks.filter((chunk) => !chunk.usageReported);
      for (const chunk of unmarked) chunk.usageReported = true;
      const markReported = () =>
        mapBounded(
          unmarked.filter((chunk) => !chunk.embedding),
          PARALLEL_OBJECTS,
          (chunk) => writeStoredChunk(deps.store, input.prefix, chunk),
        );
      const embeddedBefore = unmarked.filter((chunk) => chunk.embedding);
      await mapBounded(embeddedBefore, PARALLEL_OBJECTS, (chunk) => writeStoredChunk(deps.store, input.prefix, chunk));
      const pending = chunks.filter((chunk) => !chunk.embedding);
      const byIndex = new Map(pending.map((chunk) => [chunk.index, chunk]));
      const requests = packEmbeddingRequests(
        pending.map((chunk) => ({ key: chunk.index, tokens: estimateTokens(textToEmbed(chunk)) })),
        deps.limits,
      ).map((indexes) => indexes.map((index) => byIndex.get(index) as StoredChunk));

      const call = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority, signal };
      const outcomes = await mapBounded(requests, requests.length, async (request): Promise<RequestOutcome> => {
        try {
          const embedded = await deps.embeddings.embed({ ...call, inputs: request.map(textToEmbed), inputType: 'document' });
          const usage = usageOfCall(embedded.usage);
          request.forEach((chunk, i) => {
            chunk.embedding = embedded.vectors[i] ?? [];
            chunk.embeddingModel = embedded.model;
          });
          // The request's cost rides on its first chunk, so it is counted once however its chunks are read.
          (request[0] as StoredChunk).embeddingUsage = { usage, counted: false };
          await mapBounded(request, PARALLEL_OBJECTS, (chunk) => writeStoredChunk(deps.store, input.prefix, chunk));
          return { ok: true, chunks: request, usage };
        } catch (error) {
          return { ok: false, error };
        }
      });

      const failure = outcomes.find((outcome) => !outcome.ok);
      if (failure && !failure.ok) {
        await markReported();
        throw await reportPaid(deps.store, input.prefix, outcomes, failure.error);
      }
      const usage = chunks.reduce(
        (sum, chunk) => (chunk.embeddingUsage && !chunk.embeddingUsage.counted ? addUsage(sum, chunk.embeddingUsage.usage) : sum),
        emptyUsage(),
      );
      return { embedded: chunks.length, usage, attempt };
    });
  };
}

/**
 * A request failed after others were paid for: their cost reaches the workflow in the failure (billedUsage), and
 * their records say so, so the attempt that embeds the rest does not report it again. Only our typed errors carry
 * billedUsage; any other failure leaves the cost to the step's result.
 */
async function reportPaid(store: ObjectStore, prefix: string, outcomes: RequestOutcome[], error: unknown): Promise<unknown> {
  const paid = outcomes.flatMap((outcome) => (outcome.ok ? [outcome] : []));
  if (!(error instanceof SlowlaneError) || paid.length === 0) return error;
  for (const outcome of paid) {
    const first = outcome.chunks[0] as StoredChunk;
    first.embeddingUsage = { usage: outcome.usage, counted: true };
    await writeStoredChunk(store, prefix, first);
  }
  return withBilledUsage(
    error,
    paid.reduce((sum, outcome) => addUsage(sum, outcome.usage), emptyUsage()),
  );
}
