import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { type Payload, readRunSteps } from '../job-history-steps';

const TimeoutType = temporal.api.enums.v1.TimeoutType;

/** An activity attempt that started because the one before it timed out: its worker died under it. */
export interface TimedOutRetry {
  jobId: string;
  activity: string;
  taskQueue: string;
  /** When the attempt after the timeout started: the step was running again. */
  restartedAt: number;
  timeout: 'heartbeat' | 'start-to-close' | 'other';
}

export interface JobHistory {
  jobId: string;
  startedAt: number;
  closedAt?: number;
  /** Completions beyond the first of a step that is not asked again by design: work that had finished, done again. */
  finishedStepsRerun: Array<{ activity: string; completions: number }>;
  /** Model steps that completed (each one billed provider call that was used). */
  modelStepsCompleted: number;
  timedOutRetries: TimedOutRetry[];
}

/** The steps that make one model call each (when the answer is valid), and the tools those calls force. */
const MODEL_STEPS = new Set(['classifyDocument', 'extractInvoiceFields', 'scoreOrder', 'summarizeCall']);
export const MODEL_TOOLS = new Set(['classify_document', 'record_invoice', 'score_order', 'summarize_call']);

/**
 * Reads what the server recorded for a job. Steps that completed are ActivityTaskCompleted events; a step that
 * completed twice in one run was run again after it had finished. The one step the workflow asks again on purpose,
 * extractInvoiceFields after a schema-invalid answer (MAX_EXTRACTION_TRIES), does not count when that was its answer.
 */
export async function readJobHistory(client: Client, jobId: string): Promise<JobHistory> {
  return summarizeHistory(jobId, await client.workflow.getHandle(jobId).fetchHistory());
}

export function summarizeHistory(jobId: string, history: temporal.api.history.v1.IHistory): JobHistory {
  const run = readRunSteps(history);
  const completions = new Map<string, number>();
  const askedAgainOnPurpose = new Map<string, number>();
  const timedOutRetries: TimedOutRetry[] = [];
  for (const step of run.steps) {
    if (step.timedOutBefore !== undefined && step.startedAt !== undefined) {
      timedOutRetries.push({
        jobId,
        activity: step.activity,
        taskQueue: step.taskQueue,
        restartedAt: step.startedAt,
        timeout:
          step.timedOutBefore === TimeoutType.TIMEOUT_TYPE_HEARTBEAT
            ? 'heartbeat'
            : step.timedOutBefore === TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE
              ? 'start-to-close'
              : 'other',
      });
    }
    if (!step.completed) continue;
    completions.set(step.activity, (completions.get(step.activity) ?? 0) + 1);
    if (step.activity === 'extractInvoiceFields' && schemaInvalid(step.result)) {
      askedAgainOnPurpose.set(step.activity, (askedAgainOnPurpose.get(step.activity) ?? 0) + 1);
    }
  }
  const finishedStepsRerun = [...completions]
    .map(([activity, count]) => ({ activity, completions: count - (askedAgainOnPurpose.get(activity) ?? 0) }))
    .filter((step) => step.completions > 1);
  const modelStepsCompleted = [...completions]
    .filter(([activity]) => MODEL_STEPS.has(activity))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    jobId,
    startedAt: run.startedAt ?? 0,
    ...(run.closedAt !== undefined ? { closedAt: run.closedAt } : {}),
    finishedStepsRerun,
    modelStepsCompleted,
    timedOutRetries,
  };
}

function schemaInvalid(payload: Payload | undefined): boolean {
  if (!payload) return false;
  try {
    return (defaultPayloadConverter.fromPayload(payload) as { outcome?: string }).outcome === 'schema_invalid';
  } catch {
    // An encoded payload (a codec) cannot be read here: count the completion as a rerun rather than hide one.
    return false;
  }
}

/** The most jobs open at one moment, from their start and close times. */
export function mostInFlight(histories: JobHistory[]): number {
  const edges = histories.flatMap((h) => [
    [h.startedAt, 1],
    [h.closedAt ?? Number.POSITIVE_INFINITY, -1],
  ]) as Array<[number, number]>;
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, change] of edges) most = Math.max(most, (open += change));
  return most;
}
