import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  executeChild,
  log,
  proxyActivities,
  setHandler,
  upsertMemo,
} from '@temporalio/workflow';
import type { DocumentActivities } from '../../activities';
import type { JobStep, Usage } from '../../common/job';
import { describeChunk, planChunkGroups } from '../../common/job-types/document/chunk-groups';
import {
  type ChunkFailure,
  type ChunkSpan,
  type DocumentJobInput,
  type DocumentJobState,
  emptyUsage,
} from '../../common/job-types/document/document-job';
import { statusQuery } from '../../common/messages';
import { documentFileOptions, modelCallOptions } from '../activity-options';
import { DeadLetters, type StepFailure } from '../dead-letters';
import { jobMetrics } from '../job-metrics';
import { JobTracker } from '../job-tracker';
import { notifyClient } from '../notifications';
import { documentChunkGroupWorkflow } from './chunk-group-workflow';
import { summarizeFailure } from './step-failure';

const fileSteps = proxyActivities<DocumentActivities>(documentFileOptions);
const modelSteps = proxyActivities<DocumentActivities>(modelCallOptions);

/** An operator abandoned the parked job, or its dead-letter wait expired. */
class JobAbandoned extends Error {
  constructor(readonly jobError: StepFailure) {
    super(jobError.message);
  }
}

/** Failed chunks named in a dead letter's message; the rest are counted. */
const NAMED_FAILURES = 5;

/**
 * A long PDF read for search (DESIGN.md §7): its pages are read and cut into chunks by tokens (readDocumentPages);
 * every chunk is embedded and summarised in child workflows of a bounded size, a bounded number at a time (the map);
 * the chunks go to S3 as JSONL and one summary of the whole document is written from the chunk summaries (the
 * reduce). A chunk that fails for good parks the job as a dead letter naming it; `retry` reruns only the failed
 * chunks. Progress (pages, chunks done of total, tokens and cost) is in the status query and the memo.
 */
export async function documentWorkflow(input: DocumentJobInput): Promise<DocumentJobState> {
  const tracker = new JobTracker(input);
  const state = tracker.state as DocumentJobState;
  state.progress = { pagesRead: 0, chunksDone: 0, chunksTotal: 0, chunksFailed: 0, usage: emptyUsage() };
  const deadLetters = new DeadLetters(input, tracker);
  const notify = () => notifyClient(input, tracker);
  setHandler(statusQuery, () => state);
  const context = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority };

  const addUsage = (usage: Usage): void => {
    tracker.addUsage(usage);
    state.progress.usage = state.usage;
  };
  // The memo carries progress so GET /jobs/:id shows it with every worker down; one upsert per group, not per chunk.
  const publishProgress = (): void => upsertMemo({ progress: state.progress });

  /** Parks the job with `error` until an operator decides; returns only on `retry`. */
  const parkOrAbandon = async (error: StepFailure): Promise<void> => {
    const outcome = await deadLetters.park(error, notify);
    if (outcome !== 'retry') {
      throw new JobAbandoned(outcome === 'expired' ? { ...error, message: `${error.message} (dead letter expired)` } : error);
    }
    log.info('operator retries the failed step', { step: error.step });
  };

  /** Runs a single-activity step; a failure for good parks the job and `retry` runs the step again. */
  const run = async <T extends { attempt: number }>(step: JobStep, activity: () => Promise<T>): Promise<T> => {
    for (;;) {
      tracker.setStatus('processing', step);
      try {
        const result = await activity();
        state.attempts[step] = result.attempt;
        return result;
      } catch (error) {
        const failure = summarizeFailure(error);
        if (failure.billedUsage) addUsage(failure.billedUsage);
        await parkOrAbandon({
          type: failure.type,
          message: failure.message,
          step,
          retryable: failure.retryable,
          ...(failure.attempts !== undefined ? { attempts: failure.attempts } : {}),
        });
      }
    }
  };

  /** The map over `pending` chunks, a few child workflows at a time; returns the chunks that failed for good. */
  const fanOut = async (prefix: string, spans: ChunkSpan[], pending: number[], round: number): Promise<ChunkFailure[]> => {
    const groups = planChunkGroups(pending, input.settings.chunksPerGroup);
    const failures: ChunkFailure[] = [];
    let next = 0;
    const lanes = Array.from({ length: Math.min(input.settings.parallelGroups, groups.length) }, async () => {
      while (next < groups.length) {
        const groupNumber = next++;
        const group = groups[groupNumber] ?? [];
        try {
          const result = await executeChild(documentChunkGroupWorkflow, {
            // The round keeps a retry's children apart from the closed children of earlier rounds.
            workflowId: `${input.jobId}:chunks:${round}:${groupNumber}`,
            args: [
              {
                ...context,
                prefix,
                chunks: group.map((index) => ({ index, span: spans[index] ?? { firstPage: 0, lastPage: 0 } })),
                parallelChunks: input.settings.parallelChunks,
              },
            ],
          });
          addUsage(result.usage);
          state.progress.chunksDone += result.done.length;
          failures.push(...result.failed);
        } catch (error) {
          // The child itself failed (it reports chunk failures instead of throwing): all its chunks count as failed.
          const failure = summarizeFailure(error);
          failures.push(...group.map((index) => ({ index, type: failure.type, message: failure.message, retryable: true })));
        }
        state.progress.chunksFailed = failures.length;
        publishProgress();
      }
    });
    await Promise.all(lanes);
    return failures.sort((a, b) => a.index - b.index);
  };

  const finish = async (): Promise<DocumentJobState> => {
    tracker.setStatus('completed');
    reportFinished('completed');
    await notify();
    await condition(allHandlersFinished);
    return state;
  };
  const reportFinished = (status: 'completed' | 'failed') =>
    jobMetrics.jobFinished({
      jobType: 'document',
      priority: input.priority,
      status,
      durationMs: Date.now() - Date.parse(input.submittedAt),
      usage: state.usage,
    });

  try {
    const read = await run('readDocumentPages', () =>
      fileSteps.readDocumentPages.executeWithOptions(
        { ...documentFileOptions, summary: `Read pages · ${input.document.fileName} (${input.document.sizeBytes} bytes)` },
        [{ ...context, document: input.document, maxPages: input.settings.maxPages, chunkTokens: input.settings.chunkTokens }],
      ),
    );
    const chunks = read.spans.length;
    state.progress.pagesRead = read.pages;
    state.progress.chunksTotal = chunks;
    publishProgress();

    let pending = read.spans.map((_, index) => index);
    for (let round = 0; pending.length > 0; round++) {
      tracker.setStatus('processing', 'processDocumentChunk');
      const failures = await fanOut(read.prefix, read.spans, pending, round);
      if (failures.length === 0) break;
      await parkOrAbandon(deadLetterFor(failures, read.spans));
      pending = failures.map((failure) => failure.index);
      state.progress.chunksFailed = 0;
    }

    const chunksInput = { ...context, prefix: read.prefix, chunks, pages: read.pages };
    const written = await run('writeDocumentChunks', () =>
      fileSteps.writeDocumentChunks.executeWithOptions({ ...documentFileOptions, summary: `Write ${chunks} chunks as JSONL` }, [
        chunksInput,
      ]),
    );
    const summarized = await run('summarizeDocument', () =>
      modelSteps.summarizeDocument.executeWithOptions(
        { ...modelCallOptions, summary: `Summarise the document from ${chunks} chunk summaries` },
        [chunksInput],
      ),
    );
    addUsage(summarized.usage);
    state.result = {
      pages: read.pages,
      chunks,
      chunksKey: written.chunksKey,
      summaryKey: summarized.summaryKey,
      title: summarized.title,
    };
    publishProgress();
    return await finish();
  } catch (error) {
    if (!(error instanceof JobAbandoned)) throw error;
    state.error = error.jobError;
    tracker.setStatus('failed', error.jobError.step, error.jobError);
    reportFinished('failed');
    await notify();
    await condition(allHandlersFinished);
    throw ApplicationFailure.create({
      type: error.jobError.type,
      message: `${error.jobError.step} failed: ${error.jobError.message}`,
      nonRetryable: true,
      details: [state],
    });
  }
}

/** The dead letter of a fan-out: the first failed chunks by name and page range, the rest counted. */
function deadLetterFor(failures: ChunkFailure[], spans: ChunkSpan[]): StepFailure {
  const [first] = failures;
  if (!first) throw new Error('deadLetterFor needs at least one failure');
  const named = failures.slice(0, NAMED_FAILURES).map((failure) => describeChunk(failure.index, spans[failure.index]));
  const more = failures.length > NAMED_FAILURES ? ` and ${failures.length - NAMED_FAILURES} more` : '';
  const which = failures.length === 1 ? named[0] : `${failures.length} chunks failed (${named.join(', ')}${more}); first`;
  return {
    type: first.type,
    message: `${which}: ${first.message}`,
    step: 'processDocumentChunk',
    // A retry helps only if every failure could pass on a retry; one that cannot makes the whole job not retryable.
    retryable: failures.every((failure) => failure.retryable),
  };
}
