import { isCancellation, log, patched, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import { waitsForBudget } from '../../common/errors';
import type { Usage } from '../../common/job';
import { type ChunkFailure, type ChunkSpan, emptyUsage } from '../../common/job-types/document/document-job';
import { addUsage } from '../../common/usage-sum';
import { describeChunk } from '../../common/job-types/document/chunk-groups';
import type { Priority } from '../../common/task-queues';
import type { BatchLaneAllowance } from '../../common/job';
import { chunkGroupStepOptions, modelCallOptions } from '../activity-options';
import { type SpendCapRefusal, spendCapRefusalOf } from '../spend-cap-wait';
import { BatchLaneWait, batchWaitMs } from '../batch-lane/batch-lane-wait';
import { type FailureSummary, summarizeFailure } from './step-failure';
import { PATCHES } from '../patches';

const steps = proxyActivities<JobActivities>(modelCallOptions);

/** A chunk whose last attempt could not get the token budget is scheduled again (it never reached a provider) this long. */
const BUDGET_WAIT_LIMIT_MS = 6 * 60 * 60 * 1000;

/**
 * Whether a step that failed for want of the token budget is scheduled again: its last attempt could not get the
 * budget, or a Redis outage (BudgetUnavailableError) took attempts before another retryable error; for at most
 * BUDGET_WAIT_LIMIT_MS after the step first started. No recorded history holds either.
 */
function waitsOutBudget(failure: FailureSummary, startedAt: number): boolean {
  const outageTookAttempts = failure.retryable && (failure.budgetUnavailableAttempts ?? 0) > 0;
  return (waitsForBudget(failure.type) || outageTookAttempts) && Date.now() - startedAt < BUDGET_WAIT_LIMIT_MS;
}

export interface ChunkGroupInput {
  jobId: string;
  tenantId: string;
  priority: Priority;
  prefix: string;
  /** Where the chunks' texts are (ReadDocumentPagesResult's); absent in runs that stored a text per chunk. */
  chunkTextsKey?: string;
  chunks: Array<{ index: number; span: ChunkSpan }>;
  /** Chunks of this group in flight at once. */
  parallelChunks: number;
  /** The job's deadline and batch lane allowance: a bulk job's chunk calls may take the lane. */
  deadline?: string;
  batchLane?: BatchLaneAllowance;
}

export interface ChunkGroupResult {
  done: number[];
  failed: ChunkFailure[];
  /** Tokens and cost of the group, failed chunks' billed calls included. */
  usage: Usage;
  /**
   * Present when a chunk's paid call would have passed the tenant's spend cap: the group stopped taking chunks,
   * and these (the refused ones and those never started) wait for the parent to run them after its budget_wait.
   */
  spendCap?: SpendCapRefusal;
  waiting?: number[];
}

/**
 * One group of a document's chunks (the map step), in a child workflow of its own so the parent's history holds a
 * few events per group instead of several per chunk. A chunk that fails for good is reported, not thrown: the
 * group finishes the others, and the parent parks the job naming the failed chunks. A chunk refused by the
 * tenant's spend cap stops the group cleanly: no new chunk starts, those in flight finish, and the rest are
 * handed back as waiting, so the parent can show budget_wait and run them when the cap allows.
 */
export async function documentChunkGroupWorkflow(input: ChunkGroupInput): Promise<ChunkGroupResult> {
  const done: number[] = [];
  const failed: ChunkFailure[] = [];
  let usage = emptyUsage();
  const queue = [...input.chunks];
  const waiting: number[] = [];
  let spendCap: SpendCapRefusal | undefined;
  const batchLane = new BatchLaneWait(input);
  // Runs recorded before this patch embed each chunk in its own step, one request per chunk.
  const embedInGroup = patched(PATCHES.embeddingsInRequests.id);
  // Whose chunks, and where: every step of the group starts its input with this.
  const chunkContext = {
    jobId: input.jobId,
    tenantId: input.tenantId,
    priority: input.priority,
    prefix: input.prefix,
    ...(input.chunkTextsKey !== undefined ? { chunkTextsKey: input.chunkTextsKey } : {}),
  };

  const processChunk = async (chunk: { index: number; span: ChunkSpan }): Promise<void> => {
    const chunkInput = { ...chunkContext, ...chunk, ...(embedInGroup ? { embedInGroup } : {}) };
    // The chunk's summary (or its page's transcription) may take the batch lane; its embedding is always live.
    const fromBatch = await batchLane.firstCall({ step: 'processDocumentChunk', input: chunkInput });
    const startedAt = Date.now();
    for (;;) {
      try {
        const result = await steps.processDocumentChunk.executeWithOptions(
          { ...modelCallOptions, summary: `${embedInGroup ? 'Summarise' : 'Embed and summarise'} ${describeChunk(chunk.index, chunk.span)}` },
          [{ ...chunkInput, ...fromBatch() }],
        );
        usage = addUsage(usage, result.usage);
        done.push(chunk.index);
        return;
      } catch (error) {
        // The job was cancelled: the group ends with it.
        if (isCancellation(error)) throw error;
        const failure = summarizeFailure(error);
        if (failure.billedUsage) usage = addUsage(usage, failure.billedUsage);
        const refusal = spendCapRefusalOf(error);
        if (refusal && patched(PATCHES.spendCapsEverywhere.id)) {
          log.info('the tenant’s spend cap refused a chunk; the group stops taking chunks', { chunk: chunk.index });
          spendCap ??= refusal;
          waiting.push(chunk.index);
          return;
        }
        if (waitsOutBudget(failure, startedAt)) {
          log.info('the last attempt could not get the token budget; scheduling the chunk again', { chunk: chunk.index, errorType: failure.type });
          continue;
        }
        failed.push({ index: chunk.index, type: failure.type, message: failure.message, retryable: failure.retryable });
        return;
      }
    }
  };

  /**
   * A step over several chunks that failed as a whole (cancellation aside): its billed cost is counted, then its
   * chunks wait when the spend cap refused it, run again when it could not get the token budget (true), or fail.
   */
  const runsAgain = (error: unknown, indexes: number[], startedAt: number, what: string): boolean => {
    if (isCancellation(error)) throw error;
    const failure = summarizeFailure(error);
    if (failure.billedUsage) usage = addUsage(usage, failure.billedUsage);
    const refusal = spendCapRefusalOf(error);
    if (refusal) {
      log.info(`the tenant’s spend cap refused ${what}; its chunks wait`, { chunks: indexes.length });
      spendCap ??= refusal;
      waiting.push(...indexes);
      return false;
    }
    if (waitsOutBudget(failure, startedAt)) {
      log.info(`the last attempt could not get the token budget; running ${what} again`, { errorType: failure.type });
      return true;
    }
    failed.push(...indexes.map((index) => ({ index, type: failure.type, message: failure.message, retryable: failure.retryable })));
    return false;
  };

  /**
   * The done chunks' embeddings, in a few requests. When they cannot all be had, the chunks are not done: refused by
   * the spend cap they wait with the rest (their summaries are kept, so running them again pays only for what
   * is missing), and failed for good they are reported as failed.
   */
  const embedDone = async (): Promise<void> => {
    const indexes = done.splice(0).sort((a, b) => a - b);
    const startedAt = Date.now();
    for (;;) {
      try {
        const result = await steps.embedDocumentChunks.executeWithOptions(
          { ...modelCallOptions, summary: `Embed ${indexes.length} chunks` },
          [{ jobId: input.jobId, tenantId: input.tenantId, priority: input.priority, prefix: input.prefix, indexes }],
        );
        usage = addUsage(usage, result.usage);
        done.push(...indexes);
        return;
      } catch (error) {
        if (runsAgain(error, indexes, startedAt, 'the group’s embeddings')) continue;
        return;
      }
    }
  };

  /**
   * The group's chunks in one step (processDocumentChunks): one activity instead of one per chunk. The step retries
   * itself while its failures are retryable; what it reports failed is recorded as processChunk records it, and
   * chunks that could not get the token budget run again, alone, as processChunk's do.
   */
  const processInOneStep = async (): Promise<void> => {
    const startedAt = Date.now();
    for (let chunks = queue.splice(0); chunks.length > 0; ) {
      const stepInput = { ...chunkContext, chunks, parallelChunks: input.parallelChunks, maximumAttempts: modelCallOptions.retry?.maximumAttempts ?? 1 };
      const first = chunks[0];
      const last = chunks[chunks.length - 1];
      const pages = first && last ? ` (pages ${first.span.firstPage}–${last.span.lastPage})` : '';
      try {
        const result = await steps.processDocumentChunks.executeWithOptions(
          { ...chunkGroupStepOptions(chunks.length, input.parallelChunks), summary: `Summarise ${chunks.length} chunks${pages}` },
          [stepInput],
        );
        usage = addUsage(usage, result.usage);
        done.push(...result.done);
        if (result.spendCap) {
          log.info('the tenant’s spend cap refused a chunk; the group stops taking chunks', { chunks: result.waiting.length });
          spendCap ??= result.spendCap;
          waiting.push(...result.waiting);
        }
        const again: number[] = [];
        for (const { billedUsage, ...failure } of result.failed) {
          if (billedUsage) usage = addUsage(usage, billedUsage);
          if (waitsOutBudget(failure, startedAt)) again.push(failure.index);
          else failed.push(failure);
        }
        if (spendCap) waiting.push(...again);
        else if (again.length > 0) log.info('chunks could not get the token budget; scheduling them again', { chunks: again.length });
        chunks = spendCap ? [] : chunks.filter((chunk) => again.includes(chunk.index));
      } catch (error) {
        if (runsAgain(error, chunks.map((chunk) => chunk.index), startedAt, 'the group’s chunks')) continue;
        return;
      }
    }
  };

  // Runs recorded before this patch, and groups whose chunks may take the batch lane, run a step per chunk.
  if (embedInGroup && batchWaitMs(input, Date.now()) === undefined && patched(PATCHES.chunksInOneStep.id)) {
    await processInOneStep();
  } else {
    // A few lanes take chunks off one queue: bounded parallelism, in a deterministic order.
    const lanes = Array.from({ length: Math.min(input.parallelChunks, queue.length) }, async () => {
      for (let chunk = spendCap ? undefined : queue.shift(); chunk; chunk = spendCap ? undefined : queue.shift()) await processChunk(chunk);
    });
    await Promise.all(lanes);
  }
  if (embedInGroup && done.length > 0) await embedDone();
  const result = { done: done.sort((a, b) => a - b), failed: failed.sort((a, b) => a.index - b.index), usage };
  if (!spendCap) return result;
  waiting.push(...queue.map((chunk) => chunk.index));
  return { ...result, spendCap, waiting: waiting.sort((a, b) => a - b) };
}
