import { allHandlersFinished, ApplicationFailure, condition, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { TicketsDigestActivities } from '../../activities/tickets-digest';
import type { SummariseTicketBatchResult } from '../../activities/tickets-digest/contracts';
import { type TicketsDigestInput, TICKETS_DIGEST, TICKETS_DIGEST_BATCHING } from '../../common/job-types/tickets-digest/definition';
import type { JobState, JobStep } from '../../common/job';
import { statusQuery } from '../../common/messages';
import { extractTextOptions, modelCallOptions } from '../activity-options';
import { DeadLetters, type StepFailure } from '../dead-letters';
import { jobMetrics } from '../job-metrics';
import { JobTracker } from '../job-tracker';
import { notifyClient } from '../notifications';
import { describeFailure, failureDetailsOf } from '../step-failures';

const fileSteps = proxyActivities<TicketsDigestActivities>(extractTextOptions);
const modelSteps = proxyActivities<TicketsDigestActivities>(modelCallOptions);

/** Ends the run: the operator abandoned the parked job, or its dead-letter wait expired. */
class DigestAbandoned extends Error {
  constructor(readonly jobError: StepFailure) {
    super(jobError.message);
  }
}

/**
 * A day of support tickets into one digest (issue 10): read and batch the JSONL file, summarise the batches with
 * at most `parallelBatches` model calls in flight (map), then merge in code and write the narrative (reduce).
 * History stays small: batches and answers travel as S3 keys, a few events per batch. A step that fails for good
 * parks the job as a dead letter; `retry` runs again only what failed (for the map, only the failed batches).
 */
export async function ticketsDigestWorkflow(input: TicketsDigestInput): Promise<JobState> {
  const info = workflowInfo();
  // A scheduled run's id is the schedule's action id with the scheduled time appended by Temporal.
  const job = { ...input, jobId: input.jobId ?? info.workflowId };
  const submittedAt = input.submittedAt ?? info.startTime.toISOString();
  const context = { jobId: job.jobId, tenantId: job.tenantId, priority: job.priority };
  const tracker = new JobTracker(job);
  const { state } = tracker;
  const deadLetters = new DeadLetters(job, tracker);
  const notify = () => notifyClient(job, tracker);
  setHandler(statusQuery, () => state);

  /** Runs `work` until it succeeds, parking the job after a failure for good; throws DigestAbandoned when given up. */
  async function step<T>(name: JobStep, work: () => Promise<T>): Promise<T> {
    for (;;) {
      tracker.setStatus('processing', name);
      const startedAt = Date.now();
      try {
        const result = await work();
        jobMetrics.stepFinished({ priority: job.priority, step: name, outcome: 'completed', durationMs: Date.now() - startedAt });
        return result;
      } catch (error) {
        const failure = error instanceof StepFailed ? error.failure : describeFailure(name, error);
        const billed = failureDetailsOf(error)?.billedUsage;
        if (billed) tracker.addUsage(billed);
        jobMetrics.stepFinished({ priority: job.priority, step: name, outcome: 'failed', durationMs: Date.now() - startedAt });
        const outcome = await deadLetters.park(failure, notify);
        if (outcome !== 'retry') {
          throw new DigestAbandoned(outcome === 'expired' ? { ...failure, message: `${failure.message} (dead letter expired)` } : failure);
        }
        log.info('operator retries the failed step', { step: name });
      }
    }
  }

  const finishWith = async (status: 'completed' | 'failed'): Promise<void> => {
    tracker.setStatus(status, status === 'failed' ? state.error?.step : undefined, status === 'failed' ? state.error : undefined);
    jobMetrics.jobFinished({
      jobType: TICKETS_DIGEST,
      priority: job.priority,
      status,
      durationMs: Date.now() - Date.parse(submittedAt),
      usage: state.usage,
    });
    await notify();
    await condition(allHandlersFinished);
  };

  try {
    const prepared = await step('prepareTicketBatches', () =>
      fileSteps.prepareTicketBatches.executeWithOptions(
        { ...extractTextOptions, summary: `read ${job.tickets.fileName} (${job.tickets.sizeBytes} bytes) into batches` },
        [{ ...context, tickets: job.tickets }],
      ),
    );
    state.attempts.prepareTicketBatches = prepared.attempt;
    const summaries: Array<SummariseTicketBatchResult | undefined> = prepared.batchKeys.map(() => undefined);
    state.progress = { done: 0, total: prepared.batchKeys.length };

    await step('summariseTicketBatch', async () => {
      const failures = await summariseMissing(prepared.batchKeys, summaries, async (index) => {
        const result = await modelSteps.summariseTicketBatch.executeWithOptions(
          { ...modelCallOptions, summary: `themes of batch ${index + 1}/${prepared.batchKeys.length} of ${prepared.ticketCount} tickets` },
          [{ ...context, batchKey: prepared.batchKeys[index] as string }],
        );
        tracker.addUsage(result.usage);
        state.attempts.summariseTicketBatch = Math.max(state.attempts.summariseTicketBatch ?? 0, result.attempt);
        state.progress = { done: (state.progress?.done ?? 0) + 1, total: prepared.batchKeys.length };
        return result;
      });
      const [first] = failures;
      if (first) {
        const described = describeFailure('summariseTicketBatch', first.error);
        const billed = failures.map((failure) => failureDetailsOf(failure.error)?.billedUsage).filter((usage) => usage !== undefined);
        for (const usage of billed) tracker.addUsage(usage);
        const batches = failures.map((failure) => failure.index + 1).join(', ');
        throw new StepFailed({ ...described, message: `batch ${batches} of ${prepared.batchKeys.length}: ${described.message}` });
      }
    });

    const written = await step('writeTicketDigest', () =>
      modelSteps.writeTicketDigest.executeWithOptions(
        { ...modelCallOptions, summary: `merge ${prepared.batchKeys.length} batch summaries and write the narrative` },
        [{ ...context, factsKey: prepared.factsKey, summaryKeys: summaries.map((summary) => (summary as SummariseTicketBatchResult).summaryKey) }],
      ),
    );
    tracker.addUsage(written.usage);
    state.attempts.writeTicketDigest = written.attempt;
    state.digest = written.digest;
    await finishWith('completed');
    return state;
  } catch (error) {
    if (!(error instanceof DigestAbandoned)) throw error;
    state.error = error.jobError;
    await finishWith('failed');
    throw ApplicationFailure.create({
      type: error.jobError.type,
      message: `${error.jobError.step} failed: ${error.jobError.message}`,
      nonRetryable: true,
      details: [state],
    });
  }
}

/** The batches that failed for good in one pass, with their errors; the step parks once for all of them. */
class StepFailed extends Error {
  constructor(readonly failure: StepFailure) {
    super(failure.message);
  }
}

/**
 * Summarises every batch that has no answer yet, `parallelBatches` at a time, and keeps going past a failed one
 * so one bad batch costs no other batch its answer. Returns the batches that failed, in order.
 */
async function summariseMissing(
  batchKeys: readonly string[],
  summaries: Array<SummariseTicketBatchResult | undefined>,
  summarise: (index: number) => Promise<SummariseTicketBatchResult>,
): Promise<Array<{ index: number; error: unknown }>> {
  const pending = batchKeys.map((_, index) => index).filter((index) => summaries[index] === undefined);
  const failures: Array<{ index: number; error: unknown }> = [];
  const lane = async (): Promise<void> => {
    for (let index = pending.shift(); index !== undefined; index = pending.shift()) {
      try {
        summaries[index] = await summarise(index);
      } catch (error) {
        failures.push({ index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(TICKETS_DIGEST_BATCHING.parallelBatches, pending.length) }, lane));
  return failures.sort((a, b) => a.index - b.index);
}
