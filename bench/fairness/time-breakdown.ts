import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { MODEL_ACTIVITY_TYPES } from '../../gateway/gateway-from-config';
import { readRunSteps } from '../job-history-steps';

/**
 * Where one job's time went, from what the server recorded; the parts add up to submit → done (or → the end of
 * the run for a job still open).
 */
export interface JobTimeBreakdown {
  /** Submit → its first activity started: the job waiting to enter (its first step behind others in the queue). */
  queuedBeforeFirstStepMs: number;
  /**
   * Model steps scheduled → their last attempt started: in Temporal's queue while the worker's budget-paced slots
   * hold polls back (and behind other tasks), plus any attempts the budget refused and their retry timers.
   */
  waitingForBudgetMs: number;
  /** Model steps' last attempt started → closed: the provider call itself. */
  inModelCallsMs: number;
  /** Everything else: other steps queued and running, workflow tasks between steps. */
  otherMs: number;
}

/** One job's breakdown with the detail behind it: each model step's wait, and the attempts its calls took. */
export interface JobTimeDetail extends JobTimeBreakdown {
  /** Scheduled → started per model step (ms), in the order the steps were scheduled. */
  modelStepWaits: Array<{ step: string; waitMs: number; attempts: number }>;
}

/**
 * Splits a job's history into the parts above. ActivityTaskStarted is written when an attempt ends but carries
 * the time the attempt started, so scheduled → started covers the wait, refused attempts included.
 */
export function breakDownJobTime(history: temporal.api.history.v1.IHistory, endAt: number): JobTimeDetail {
  const run = readRunSteps(history);
  const submittedAt = run.startedAt;
  if (submittedAt === undefined) throw new Error('the history has no WorkflowExecutionStarted event');
  const end = run.closedAt ?? endAt;
  const ordered = run.steps;
  // A step still running has no started event yet (the server writes it when the attempt ends): it counts as
  // waiting, so an open job's parts lean toward the queue. Finished jobs are exact.
  const first = ordered[0];
  const firstStartedAt = first?.startedAt ?? first?.closedAt ?? end;
  let waitingForBudgetMs = 0;
  let inModelCallsMs = 0;
  const modelStepWaits: JobTimeDetail['modelStepWaits'] = [];
  for (const step of ordered) {
    if (!MODEL_ACTIVITY_TYPES.has(step.activity)) continue;
    // A step that closed without a started event (cancelled while queued) waited its whole life.
    const startedAt = step.startedAt ?? step.closedAt ?? end;
    waitingForBudgetMs += startedAt - step.scheduledAt;
    modelStepWaits.push({ step: step.activity, waitMs: startedAt - step.scheduledAt, attempts: step.attempt ?? 0 });
    inModelCallsMs += (step.closedAt ?? end) - startedAt;
  }
  const queuedBeforeFirstStepMs = firstStartedAt - submittedAt;
  return {
    queuedBeforeFirstStepMs,
    waitingForBudgetMs,
    inModelCallsMs,
    otherMs: end - submittedAt - queuedBeforeFirstStepMs - waitingForBudgetMs - inModelCallsMs,
    modelStepWaits,
  };
}

export async function readJobTimeBreakdown(client: Client, jobId: string, endAt: number): Promise<JobTimeDetail> {
  return breakDownJobTime(await client.workflow.getHandle(jobId).fetchHistory(), endAt);
}
