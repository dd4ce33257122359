import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import { type FailureDetails, TenantSpendCapReachedError } from '../../common/errors';
import { emptyUsage } from '../../common/job-types/document/document-job';
import type { Usage } from '../../common/job';
import { addUsage } from '../../common/usage-sum';
import { withHeartbeats } from '../heartbeat';
import { toApplicationFailure } from '../../lib/failures';
import type { ObjectStore } from '../../lib/object-store';
import type {
  ProcessDocumentChunkInput,
  ProcessDocumentChunkResult,
  ProcessDocumentChunksInput,
  ProcessDocumentChunksResult,
} from './contracts';
import { documentKeys } from './document-keys';
import type { StoredRecords } from './process-document-chunk';

type ProcessChunk = (input: ProcessDocumentChunkInput, stored?: StoredRecords) => Promise<ProcessDocumentChunkResult>;

/**
 * A group's chunks in one step (workflows/patches.ts chunksInOneStep): each chunk runs as processDocumentChunk runs it,
 * a few at a time, so its result and paid calls are kept in S3 one by one, but the group costs one activity instead
 * of one per chunk. An attempt that meets only retryable failures throws the first, so Temporal retries the step
 * with that error's delay and the chunks already stored are reused at no cost; the last attempt, or one with a
 * failure no retry helps, reports each chunk's failure instead. A chunk refused by the tenant's spend cap stops the
 * step taking chunks: those in flight finish, and the refused and unstarted ones are handed back as waiting.
 */
export function createProcessDocumentChunks(processChunk: ProcessChunk, store?: ObjectStore) {
  return async function processDocumentChunks(input: ProcessDocumentChunksInput): Promise<ProcessDocumentChunksResult> {
    const { attempt } = Context.current().info;
    const { chunks, parallelChunks, maximumAttempts, ...context } = input;
    return withHeartbeats(async (signal) => {
      // One listing of the chunks' records instead of two lookups a chunk (its result, its paid parts).
      const listed = store ? await storedRecords(store, input.prefix) : undefined;
      const storedOf = (index: number): StoredRecords | undefined =>
        listed && { result: listed.has(documentKeys.chunkResult(input.prefix, index)), partial: listed.has(documentKeys.chunkPartial(input.prefix, index)) };
      const queue = [...chunks];
      const done: number[] = [];
      const errors: Array<{ index: number; error: unknown }> = [];
      const waiting: number[] = [];
      let usage: Usage = emptyUsage();
      let spendCap: ProcessDocumentChunksResult['spendCap'];
      const lane = async (): Promise<void> => {
        for (let chunk = spendCap ? undefined : queue.shift(); chunk && !signal.aborted; chunk = spendCap ? undefined : queue.shift()) {
          try {
            const result = await processChunk({ ...context, ...chunk, embedInGroup: true }, storedOf(chunk.index));
            usage = addUsage(usage, result.usage);
            done.push(chunk.index);
          } catch (error) {
            const refusal = spendCapRefusalOf(error);
            if (refusal) {
              spendCap ??= refusal;
              waiting.push(chunk.index);
            } else errors.push({ index: chunk.index, error });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(parallelChunks, queue.length)) }, lane));
      // A cancelled job: the step ends as cancelled, whatever its chunks threw on the way out.
      if (signal.aborted) throw signal.reason;
      const reported = errors.map(({ index, error }) => ({ error, failure: { index, ...failureOf(error, attempt) } }));
      const first = reported.find(({ failure }) => failure.retryable);
      if (first && !spendCap && reported.every(({ failure }) => failure.retryable) && attempt < maximumAttempts) throw first.error;
      waiting.push(...queue.map((chunk) => chunk.index));
      return {
        done: done.sort((a, b) => a - b),
        failed: reported.map(({ failure }) => failure).sort((a, b) => a.index - b.index),
        usage,
        ...(spendCap ? { spendCap } : {}),
        waiting: waiting.sort((a, b) => a - b),
        attempt,
      };
    });
  };
}

async function storedRecords(store: ObjectStore, prefix: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const key of store.list(documentKeys.chunksDir(prefix))) keys.add(key);
  return keys;
}

function spendCapRefusalOf(error: unknown): ProcessDocumentChunksResult['spendCap'] | undefined {
  if (!(error instanceof TenantSpendCapReachedError)) return undefined;
  return error.details?.spendCap as ProcessDocumentChunksResult['spendCap'];
}

/** A chunk's failure as the workflow records it: what the activity failure interceptor would have said of it. */
function failureOf(error: unknown, attempt: number): { type: string; message: string; retryable: boolean; billedUsage?: Usage } {
  const failure = toApplicationFailure(error, attempt);
  if (!(failure instanceof ApplicationFailure)) return { type: 'Error', message: String(error), retryable: true };
  const billedUsage = (failure.details?.[0] as FailureDetails | undefined)?.billedUsage;
  return { type: failure.type ?? 'Error', message: failure.message, retryable: !failure.nonRetryable, ...(billedUsage ? { billedUsage } : {}) };
}
