import { jobTypeOfWorkflow } from '../common/job-types/registry';
import { jobWorkflowsClause } from './dead-letter-query';
import { setTimeout as delay } from 'node:timers/promises';
import {
  type Client,
  type WorkflowExecutionDescription,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { JobError, JobStatus } from '../common/job';
import { retryUpdate } from '../common/messages';
import { JobStatusKey, JobStepKey, StatusSinceKey } from '../common/search-attributes';
import { type ActivityStep, isActivityStep, stepNamed } from '../common/job-steps';
import { findResetPoint } from './reset-point';

/** What the replay did (or, in a dry run, would do) to one job. */
export type ReplayAction = 'retried' | 'reset' | 'would_retry' | 'would_reset' | 'refused' | 'not_found' | 'failed';

export interface ReplayOutcome {
  jobId: string;
  action: ReplayAction;
  /** One line an operator can read: what happened and why. */
  detail: string;
  step?: string;
  /** The run that continues the job after a reset. */
  runId?: string;
  resetEventId?: number;
}

export interface ReplayOptions {
  namespace: string;
  operator: string;
  reason: string;
  dryRun?: boolean;
}

/** Workflows that closed without success and can be reset; COMPLETED and CANCELED (on purpose) cannot. */
export const RESETTABLE = new Set(['FAILED', 'TERMINATED', 'TIMED_OUT']);

/**
 * Brings one job back after a fix. A parked dead letter gets the `retry` Update and resumes at its failed step;
 * a workflow that closed as failed is reset to the task before its failed step, so finished steps keep their
 * results. Running jobs that are not parked, and jobs that finished, are refused. Ledger posts are idempotent on
 * the job id, which survives a reset, so a job can never post twice.
 */
export async function replayJob(client: Client, jobId: string, options: ReplayOptions): Promise<ReplayOutcome> {
  let description: WorkflowExecutionDescription;
  try {
    description = await client.workflow.getHandle(jobId).describe();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return { jobId, action: 'not_found', detail: 'no such job' };
    throw error;
  }
  // Webhook deliveries share the namespace; resetting one of those is not a job's replay.
  if (!jobTypeOfWorkflow(description.type)) {
    return { jobId, action: 'not_found', detail: `no such job (${jobId} is a ${description.type})` };
  }
  const execution = description.status.name;
  const jobStatus = description.typedSearchAttributes.get(JobStatusKey) as JobStatus | undefined;
  const step = stepNamed(description.typedSearchAttributes.get(JobStepKey));
  if (execution === 'RUNNING') {
    if (jobStatus !== 'dead_letter') {
      return {
        jobId,
        action: 'refused',
        detail: `still running (${jobStatus ?? 'queued'}${step ? ` at ${step}` : ''}); only parked dead letters and failed jobs are replayed`,
      };
    }
    return retryDeadLetter(client, description, options);
  }
  if (!RESETTABLE.has(execution)) {
    const how = execution === 'COMPLETED' ? `finished as ${jobStatus ?? 'completed'}` : `closed as ${execution.toLowerCase()}`;
    return { jobId, action: 'refused', detail: `${how}; there is nothing to replay` };
  }
  return resetFailedRun(client, description, options);
}

async function retryDeadLetter(
  client: Client,
  description: WorkflowExecutionDescription,
  options: ReplayOptions,
): Promise<ReplayOutcome> {
  const { workflowId: jobId, runId } = description;
  const step = stepNamed(description.typedSearchAttributes.get(JobStepKey));
  if (options.dryRun) return { jobId, action: 'would_retry', step, detail: `parked at ${step}; would send retry` };
  // One id per parking: a second replay of the same dead letter (a retried request, a racing operator) is the
  // same Update, which the server deduplicates, not a second retry.
  const since = description.typedSearchAttributes.get(StatusSinceKey)?.toISOString() ?? 'unknown';
  try {
    const result = await client.workflow.getHandle(jobId, runId).executeUpdate(retryUpdate, {
      args: [{ operator: options.operator, reason: options.reason }],
      updateId: `retry:${runId}:${since}`,
    });
    return { jobId, action: 'retried', step: result.step ?? step, detail: `retry sent; ${result.step ?? step} runs again` };
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
      return { jobId, action: 'refused', detail: error.cause.message };
    }
    throw error;
  }
}

async function resetFailedRun(
  client: Client,
  description: WorkflowExecutionDescription,
  options: ReplayOptions,
): Promise<ReplayOutcome> {
  const { workflowId: jobId, runId } = description;
  const failedStep = failedStepOf(description);
  const history = await client.workflow.getHandle(jobId, runId).fetchHistory();
  const point = findResetPoint(history.events ?? [], failedStep);
  if (!point) return { jobId, action: 'refused', detail: 'no completed workflow task to reset to' };
  const closed = description.status.name.toLowerCase();
  if (options.dryRun) {
    return { jobId, action: 'would_reset', step: point.step, resetEventId: point.eventId, detail: `${closed}; would reset: ${point.explanation}` };
  }
  const request = temporal.api.workflowservice.v1.ResetWorkflowExecutionRequest.fromObject({
    namespace: options.namespace,
    workflowExecution: { workflowId: jobId, runId },
    reason: `${options.reason} (by ${options.operator})`,
    workflowTaskFinishEventId: point.eventId,
    // The same failed run and reset point give the same request id: a repeated replay is deduplicated.
    requestId: `replay:${runId}:${point.eventId}`,
    identity: `slowlane-replay/${options.operator}`,
  });
  const response = await client.workflowService.resetWorkflowExecution(request);
  return {
    jobId,
    action: 'reset',
    step: point.step,
    runId: response.runId ?? undefined,
    resetEventId: point.eventId,
    detail: `was ${closed}; reset: ${point.explanation}`,
  };
}

/** The step the job failed at, as its memo recorded it (the workflow writes the error there when it parks). */
function failedStepOf(description: WorkflowExecutionDescription): ActivityStep | undefined {
  const step = stepNamed(((description.memo ?? {}) as { error?: JobError }).error?.step);
  return step && isActivityStep(step) ? step : undefined;
}

export interface BatchReplayOptions extends ReplayOptions {
  /** Jobs per second at most; a batch after an outage should not start hundreds of model calls at once. */
  ratePerSecond: number;
  /** Stop after this many jobs. */
  limit: number;
  onOutcome?: (outcome: ReplayOutcome) => void;
  sleep?: (ms: number) => Promise<void>;
}

export type ReplaySummary = Record<ReplayAction, number>;

export function summarize(outcomes: ReplayOutcome[]): ReplaySummary {
  const summary: ReplaySummary = { retried: 0, reset: 0, would_retry: 0, would_reset: 0, refused: 0, not_found: 0, failed: 0 };
  for (const outcome of outcomes) summary[outcome.action] += 1;
  return summary;
}

/** Replays jobs one after another at a bounded rate; a job that throws is reported and the batch goes on. */
export async function replayJobs(client: Client, jobIds: AsyncIterable<string> | Iterable<string>, options: BatchReplayOptions) {
  const sleep = options.sleep ?? delay;
  const gapMs = 1000 / options.ratePerSecond;
  const outcomes: ReplayOutcome[] = [];
  for await (const jobId of jobIds) {
    if (outcomes.length >= options.limit) break;
    if (outcomes.length > 0 && !options.dryRun) await sleep(gapMs);
    const outcome = await replayJob(client, jobId, options).catch(
      (error: unknown): ReplayOutcome => ({ jobId, action: 'failed', detail: error instanceof Error ? error.message : String(error) }),
    );
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return { outcomes, summary: summarize(outcomes) };
}

/** Job ids matching a visibility query, restricted to jobs (of any type); a job with several runs counts once. */
export async function* jobsMatching(client: Client, query: string): AsyncIterable<string> {
  const seen = new Set<string>();
  for await (const workflow of client.workflow.list({ query: `${jobWorkflowsClause()} AND (${query})` })) {
    if (seen.has(workflow.workflowId)) continue;
    seen.add(workflow.workflowId);
    yield workflow.workflowId;
  }
}
