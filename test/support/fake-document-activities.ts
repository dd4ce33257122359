import { Context } from '@temporalio/activity';
import type { DocumentActivities } from '../../activities/document';
import type { ProcessDocumentChunkInput } from '../../activities/document/contracts';
import { createProcessDocumentChunks } from '../../activities/document/process-document-chunks';
import { ModelRequestInvalidError, TenantSpendCapReachedError } from '../../common/errors';
import type { Usage } from '../../common/job';
import type { DocumentJobSettings } from '../../common/job-types/document/document-job';

/** A chunk step's cost: its summary (its group embeds it, one request for the group). */
export const chunkUsage: Usage = { inputTokens: 500, outputTokens: 60, costUsd: 0.00046, calls: 1 };
/** One embeddings request's cost: 400 tokens a chunk. */
export const embedUsage = (chunks: number): Usage => ({ inputTokens: 400 * chunks, outputTokens: 0, costUsd: 0.00004 * chunks, calls: 1 });
export const reduceUsage: Usage = { inputTokens: 5000, outputTokens: 400, costUsd: 0.007, calls: 1 };
export const PAGES_PER_CHUNK = 3;
/** What the fake worker's DOCUMENT_* settings are; a job's `settings` override them as the real step does. */
export const workerSettings: DocumentJobSettings = {
  maxPages: 500,
  chunkTokens: 800,
  chunksPerGroup: 4,
  parallelGroups: 3,
  parallelChunks: 2,
};

export interface FakeDocumentOptions {
  chunks: number;
  /** Chunks that fail for good (non-retryable) on their first `n` runs. */
  failing?: Map<number, number>;
  /** Chunks refused by the tenant's spend cap on their first `n` runs, the window turning at `resumesAt()`. */
  capRefused?: { chunks: Map<number, number>; resumesAt: () => Date };
  /**
   * Groups, by their first chunk's index, whose group step (`group`) or embeddings step (`embeddings`) fails as a
   * whole, for good, on its first `n` runs: the step's own failure, not one of its chunks'.
   */
  stepFailing?: { group?: Map<number, number>; embeddings?: Map<number, number> };
  /** Chunks that are scanned pages (the model reads them by looking, possibly from an uploaded file). */
  scanned?: ReadonlySet<number>;
  /** Called as each chunk starts; may block (a worker about to be killed). */
  onChunk?: (index: number) => Promise<void>;
}

/**
 * In-memory document steps: a document of `chunks` chunks of three pages each, chunk calls counted per index,
 * chosen chunks failing for good, or refused by the spend cap, a given number of times.
 */
export function fakeDocumentActivities(options: FakeDocumentOptions) {
  const chunkRuns = new Map<number, number>();
  /** Where each chunk step was told its text is (ProcessDocumentChunkInput.chunkTextsKey), by index. */
  const chunkTextsKeys = new Map<number, string | undefined>();
  /** The chunks of each embedDocumentChunks run, in the order they ran. */
  const embedRuns: number[][] = [];
  const failing = new Map(options.failing ?? []);
  const refused = new Map(options.capRefused?.chunks ?? []);
  const groupStepFailing = new Map(options.stepFailing?.group ?? []);
  const embeddingsStepFailing = new Map(options.stepFailing?.embeddings ?? []);
  /** Throws for good when the group starting at `first` has failures of this step left. */
  const failsAsAWhole = (stepFailures: Map<number, number>, first: number | undefined, step: string): void => {
    const left = first === undefined ? 0 : (stepFailures.get(first) ?? 0);
    if (first === undefined || left === 0) return;
    stepFailures.set(first, left - 1);
    throw new ModelRequestInvalidError(`provider answered 400: the ${step} of the group from chunk ${first} is malformed`);
  };
  const activities: DocumentActivities = {
    async readDocumentPages(input) {
      return {
        pages: options.chunks * PAGES_PER_CHUNK,
        tokens: options.chunks * 800,
        prefix: `documents/${input.tenantId}/fake`,
        chunkTextsKey: `documents/${input.tenantId}/fake/chunk-texts.json`,
        spans: Array.from({ length: options.chunks }, (_, index) => ({
          firstPage: index * PAGES_PER_CHUNK + 1,
          lastPage: (index + 1) * PAGES_PER_CHUNK,
          ...(options.scanned?.has(index) ? { scanned: true as const } : {}),
        })),
        settings: { ...workerSettings, ...input.settings },
        attempt: Context.current().info.attempt,
      };
    },
    async processDocumentChunk(input: ProcessDocumentChunkInput) {
      chunkRuns.set(input.index, (chunkRuns.get(input.index) ?? 0) + 1);
      chunkTextsKeys.set(input.index, input.chunkTextsKey);
      await options.onChunk?.(input.index);
      const refusalsLeft = refused.get(input.index) ?? 0;
      if (refusalsLeft > 0 && options.capRefused) {
        refused.set(input.index, refusalsLeft - 1);
        const resumesAt = options.capRefused.resumesAt().toISOString();
        throw new TenantSpendCapReachedError(`tenant ${input.tenantId} has spent its daily cap`, {
          details: { spendCap: { window: 'day', capUsd: 5, spentUsd: 5, resumesAt } },
        });
      }
      const failuresLeft = failing.get(input.index) ?? 0;
      if (failuresLeft > 0) {
        failing.set(input.index, failuresLeft - 1);
        throw new ModelRequestInvalidError(`provider answered 400: chunk ${input.index} is unreadable`);
      }
      return { index: input.index, usage: chunkUsage, reused: false, attempt: Context.current().info.attempt };
    },
    // The real step's handling of a group (its lanes, retries and refusals) around these scripted chunks.
    processDocumentChunks: (input) => {
      failsAsAWhole(groupStepFailing, input.chunks[0]?.index, 'summaries');
      return createProcessDocumentChunks((chunk) => activities.processDocumentChunk(chunk))(input);
    },
    async embedDocumentChunks(input) {
      embedRuns.push(input.indexes);
      failsAsAWhole(embeddingsStepFailing, input.indexes[0], 'embeddings request');
      return { embedded: input.indexes.length, usage: embedUsage(input.indexes.length), attempt: Context.current().info.attempt };
    },
    async writeDocumentChunks(input) {
      return { chunksKey: `${input.prefix}/chunks.jsonl`, bytes: input.chunks * 100, attempt: Context.current().info.attempt };
    },
    async summarizeDocument(input) {
      return {
        summaryKey: `${input.prefix}/summary.json`,
        title: 'A fake document',
        usage: reduceUsage,
        attempt: Context.current().info.attempt,
      };
    },
  };
  return { activities, chunkRuns, chunkTextsKeys, embedRuns };
}
