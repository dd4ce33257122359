import { ActivityFailure, ApplicationFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import type { SummariseTicketBatchResult } from '../../activities/tickets-digest/contracts';
import type { FromBatch } from '../../common/batch-lane';
import type { JobStart } from '../../common/job';
import { TICKETS_DIGEST_BATCHING, ticketsDigestJobType } from '../../common/job-types/tickets-digest/definition';
import type { TicketsDigestJobInput, TicketsDigestJobState } from '../../common/job-types/tickets-digest/tickets-digest-job';
import { extractTextOptions, modelCallOptions } from '../activity-options';
import { BatchLaneWait } from '../batch-lane/batch-lane-wait';
import { JobRun } from '../job-run';

const fileSteps = proxyActivities<JobActivities>(extractTextOptions);
const modelSteps = proxyActivities<JobActivities>(modelCallOptions);

/**
 * `tickets.digest` (issue 10): read and batch the JSONL file, summarise the batches with at most `parallelBatches`
 * model calls in flight (map), then merge in code and write the narrative (reduce). History stays small: batches
 * and answers travel as S3 keys, a few events per batch. A step that fails for good parks the job as a dead letter;
 * `retry` runs again only what failed — for the map, only the batches without an answer. A bulk job's first
 * call of each batch and of the narrative may take the batch lane (half the price); retries and reruns ask live.
 */
export async function ticketsDigestWorkflow(input: TicketsDigestJobInput): Promise<TicketsDigestJobState> {
  const info = workflowInfo();
  // A scheduled run's id is the schedule action's id with the scheduled time appended by Temporal.
  const start: JobStart = { ...input, jobId: input.jobId ?? info.workflowId, submittedAt: input.submittedAt ?? info.startTime.toISOString() };
  const job = new JobRun(start, ticketsDigestJobType);
  const { state, tracker } = job;
  const context = { jobId: start.jobId, tenantId: start.tenantId, priority: start.priority };
  // Before the first await, so no batch answer arrives before its handler.
  const batchLane = new BatchLaneWait(start);

  return job.settle(async () => {
    const prepared = await job.run('prepareTicketBatches', () =>
      fileSteps.prepareTicketBatches.executeWithOptions(
        { ...extractTextOptions, summary: `read ${input.document.fileName} (${input.document.sizeBytes} bytes) into batches` },
        [{ ...context, tickets: input.document }],
      ),
    );
    const total = prepared.batchKeys.length;
    const summaries: Array<SummariseTicketBatchResult | undefined> = prepared.batchKeys.map(() => undefined);
    state.progress = { done: 0, total };

    // Every batch's entry at once, so they share batches; only this first round takes the lane (a rerun asks live).
    const batchInputs = prepared.batchKeys.map((batchKey) => ({ ...context, batchKey }));
    const fromBatches: Array<() => FromBatch> = await Promise.all(
      batchInputs.map((input) =>
        batchLane.firstCall({ step: 'summariseTicketBatch', input }, () => tracker.setStatus('processing', 'summariseTicketBatch')),
      ),
    );
    await job.run('summariseTicketBatch', () =>
      summariseMissing(total, summaries, async (index) => {
        const result = await modelSteps.summariseTicketBatch.executeWithOptions(
          { ...modelCallOptions, summary: `themes of batch ${index + 1}/${total} (${prepared.ticketCount} tickets in all)` },
          [{ ...context, batchKey: prepared.batchKeys[index] as string, ...fromBatches[index]?.() }],
        );
        tracker.addUsage(result.usage);
        return result;
      }, (done) => (state.progress = { done, total })),
    );

    const summaryKeys = summaries.map((summary) => (summary as SummariseTicketBatchResult).summaryKey);
    const writeInput = { ...context, factsKey: prepared.factsKey, summaryKeys };
    const narrativeFromBatch = await batchLane.firstCall({ step: 'writeTicketDigest', input: writeInput }, () =>
      tracker.setStatus('processing', 'writeTicketDigest'),
    );
    const written = await job.run('writeTicketDigest', () =>
      modelSteps.writeTicketDigest.executeWithOptions(
        { ...modelCallOptions, summary: `merge ${total} batch summaries and write the narrative` },
        [{ ...writeInput, ...narrativeFromBatch() }],
      ),
    );
    tracker.addUsage(written.usage);
    state.result = written.digest;
    return job.finish('completed');
  });
}

/**
 * Summarises every batch that has no answer yet, `parallelBatches` at a time, and keeps going past a failed batch
 * so one bad batch costs no other its answer. When some failed, the first failure is thrown for the step (the job
 * parks on it), its message naming every failed batch; an operator's retry then calls this again and only the
 * batches still without an answer run. Reports the batches done as each lands. Returns the highest attempt any batch took, as the step's attempts.
 */
async function summariseMissing(
  total: number,
  summaries: Array<SummariseTicketBatchResult | undefined>,
  summarise: (index: number) => Promise<SummariseTicketBatchResult>,
  onProgress: (done: number) => void,
): Promise<{ attempt: number }> {
  const pending = Array.from({ length: total }, (_, index) => index).filter((index) => summaries[index] === undefined);
  const failures: Array<{ index: number; error: unknown }> = [];
  let attempt = 1;
  const lane = async (): Promise<void> => {
    for (let index = pending.shift(); index !== undefined; index = pending.shift()) {
      try {
        const result = await summarise(index);
        summaries[index] = result;
        attempt = Math.max(attempt, result.attempt);
        onProgress(summaries.filter(Boolean).length);
      } catch (error) {
        failures.push({ index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(TICKETS_DIGEST_BATCHING.parallelBatches, pending.length) }, lane));
  if (failures.length === 0) return { attempt };
  failures.sort((a, b) => a.index - b.index);
  const first = failures[0]?.error;
  // The step's error is the first batch's activity failure, so it is described (type, retryable) like any step's.
  if (first instanceof ActivityFailure && first.cause instanceof ApplicationFailure) {
    first.cause.message = `batch ${failures.map((failure) => failure.index + 1).join(', ')} of ${total}: ${first.cause.message}`;
  }
  throw first;
}
