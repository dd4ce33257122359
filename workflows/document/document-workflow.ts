import { executeChild, isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import type { ReadDocumentPagesResult } from '../../activities/document/contracts';
import type { Usage } from '../../common/job';
import { describeChunk, planChunkGroups } from '../../common/job-types/document/chunk-groups';
import { documentJobType } from '../../common/job-types/document/definition';
import {
  type ChunkFailure,
  type ChunkSpan,
  type DocumentJobInput,
  type DocumentJobState,
} from '../../common/job-types/document/document-job';
import { documentFileOptions, modelCallOptions } from '../activity-options';
import type { StepFailure } from '../dead-letters';
import { BatchLaneWait } from '../batch-lane/batch-lane-wait';
import { JobRun } from '../job-run';
import { type SpendCapRefusal, SpendCapStopped } from '../spend-cap-wait';
import { documentChunkGroupWorkflow } from './chunk-group-workflow';
import { summarizeFailure } from './step-failure';
import { PATCHES } from '../patches';

const fileSteps = proxyActivities<JobActivities>(documentFileOptions);
const modelSteps = proxyActivities<JobActivities>(modelCallOptions);

/** Failed chunks named in a dead letter's message; the rest are counted. */
const NAMED_FAILURES = 5;

/**
 * A long PDF read for search (docs/architecture.md): its pages are read and cut into chunks by tokens (readDocumentPages);
 * every chunk is embedded and summarised in child workflows of a bounded size, a bounded number at a time (the map);
 * the chunks go to S3 as JSONL and one summary of the whole document is written from the chunk summaries (the
 * reduce). A chunk that fails for good parks the job as a dead letter naming it; `retry` reruns only the failed
 * chunks. A chunk refused by the tenant's spend cap stops the fan-out: the job waits in `budget_wait` on
 * processDocumentChunk, then runs the chunks that did not run (JobRun.withSpendCapWaits). Progress (pages, chunks done of total, tokens and cost) is in the status query and the memo.
 */
export async function documentWorkflow(input: DocumentJobInput): Promise<DocumentJobState> {
  const job = new JobRun(input, documentJobType);
  const state = job.state as DocumentJobState;
  const counts = { unit: 'chunks', pagesRead: 0, done: 0, total: 0, failed: 0 };
  const context = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority };
  // The chunk groups take the lane for their chunks on the job's terms; the reduce takes it here.
  const laneTerms = { ...(input.deadline ? { deadline: input.deadline } : {}), ...(input.batchLane ? { batchLane: input.batchLane } : {}) };
  const batchLane = new BatchLaneWait(input);

  const addUsage = (usage: Usage): void => job.tracker.addUsage(usage);
  // One publish (a memo upsert) per group, not per chunk: the parent's history stays bounded.
  const publishProgress = (): void => job.tracker.publishProgress(counts);

  /**
   * The map over `pending` chunks, a few child workflows at a time; returns the chunks that failed for good and,
   * when a group stopped on the tenant's spend cap (no new group starts then), the refusal and the chunks that
   * did not run.
   */
  const fanOut = async (
    read: Pick<ReadDocumentPagesResult, 'settings' | 'prefix' | 'spans' | 'chunkTextsKey'>,
    pending: number[],
    round: number,
  ): Promise<{ failures: ChunkFailure[]; spendCap?: SpendCapRefusal; waiting: number[] }> => {
    const { settings, spans } = read;
    const groups = planChunkGroups(pending, settings.chunksPerGroup);
    const failures: ChunkFailure[] = [];
    const waiting: number[] = [];
    let spendCap: SpendCapRefusal | undefined;
    let next = 0;
    const lanes = Array.from({ length: Math.min(settings.parallelGroups, groups.length) }, async () => {
      while (next < groups.length && !spendCap) {
        const groupNumber = next++;
        const group = groups[groupNumber] ?? [];
        try {
          const result = await executeChild(documentChunkGroupWorkflow, {
            // The round keeps a retry's children apart from the closed children of earlier rounds.
            workflowId: `${input.jobId}:chunks:${round}:${groupNumber}`,
            args: [
              {
                ...context,
                // An operator's retry of failed chunks wants its answer now: only the first round takes the lane.
                ...(round === 0 ? laneTerms : {}),
                prefix: read.prefix,
                // Runs recorded before the texts were one object have no key: their chunks read a text each.
                ...(read.chunkTextsKey !== undefined ? { chunkTextsKey: read.chunkTextsKey } : {}),
                chunks: group.map((index) => ({ index, span: spans[index] ?? { firstPage: 0, lastPage: 0 } })),
                parallelChunks: settings.parallelChunks,
              },
            ],
          });
          addUsage(result.usage);
          counts.done += result.done.length;
          failures.push(...result.failed);
          if (result.spendCap && patched(PATCHES.spendCapsEverywhere.id)) {
            spendCap ??= result.spendCap;
            waiting.push(...(result.waiting ?? []));
          }
        } catch (error) {
          // A cancelled job cancels its children; that is the job ending, not chunks failing.
          if (isCancellation(error)) throw error;
          // The child itself failed (it reports chunk failures instead of throwing): all its chunks count as failed.
          const failure = summarizeFailure(error);
          failures.push(...group.map((index) => ({ index, type: failure.type, message: failure.message, retryable: true })));
        }
        counts.failed = failures.length;
        publishProgress();
      }
    });
    await Promise.all(lanes);
    if (spendCap) waiting.push(...groups.slice(next).flat());
    return { failures: failures.sort((a, b) => a.index - b.index), ...(spendCap ? { spendCap } : {}), waiting: waiting.sort((a, b) => a - b) };
  };

  return (await job.settle(async () => {
    const read = await job.run('readDocumentPages', () =>
      fileSteps.readDocumentPages.executeWithOptions(
        { ...documentFileOptions, summary: `Read pages · ${input.document.fileName} (${input.document.sizeBytes} bytes)` },
        [{ ...context, document: input.document, ...(input.settings ? { settings: input.settings } : {}) }],
      ),
    );
    const chunks = read.spans.length;
    if (read.spans.some((span) => span.scanned)) job.deletesProviderFilesAtEnd();
    counts.pagesRead = read.pages;
    counts.total = chunks;
    publishProgress();

    let pending = read.spans.map((_, index) => index);
    // Each fan-out has its own round, so its children's ids never meet the closed children of an earlier one.
    let round = 0;
    while (pending.length > 0) {
      const failures: ChunkFailure[] = [];
      await job.withSpendCapWaits('processDocumentChunk', async () => {
        job.tracker.setStatus('processing', 'processDocumentChunk');
        const outcome = await fanOut(read, pending, round++);
        failures.push(...outcome.failures);
        counts.failed = failures.length;
        if (outcome.spendCap) {
          pending = outcome.waiting;
          throw new SpendCapStopped(outcome.spendCap);
        }
      });
      if (failures.length === 0) break;
      await job.park(deadLetterFor(failures, read.spans));
      pending = failures.map((failure) => failure.index);
      counts.failed = 0;
    }

    const chunksInput = { ...context, prefix: read.prefix, chunks, pages: read.pages };
    const written = await job.run('writeDocumentChunks', () =>
      fileSteps.writeDocumentChunks.executeWithOptions({ ...documentFileOptions, summary: `Write ${chunks} chunks as JSONL` }, [
        chunksInput,
      ]),
    );
    const summaryFromBatch = await batchLane.firstCall({ step: 'summarizeDocument', input: chunksInput }, () =>
      job.tracker.setStatus('processing', 'summarizeDocument'),
    );
    const summarized = await job.run('summarizeDocument', () =>
      modelSteps.summarizeDocument.executeWithOptions(
        { ...modelCallOptions, summary: `Summarise the document from ${chunks} chunk summaries` },
        [{ ...chunksInput, ...summaryFromBatch() }],
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
    return job.finish('completed');
  })) as DocumentJobState;
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
    // A retry can help only if every failure could pass on a retry.
    retryable: failures.every((failure) => failure.retryable),
  };
}
