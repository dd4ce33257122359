import { msToNumber } from '@temporalio/common/lib/time';
import { taskQueueFor } from '../../common/task-queues';
import { extractTextOptions, ledgerOptions, modelCallOptions } from '../../workflows/activity-options';
import type { WorkerKill } from './chaos-monkey';
import type { LedgerEntry } from './faults';
import type { JobHistory, TimedOutRetry } from './histories';
import type { SubmittedJob } from './submit';

/** How long the server waits before it hands a dead worker's step to another attempt, per step. */
export const DEAD_WORKER_NOTICED_AFTER_MS = {
  extractText: msToNumber(extractTextOptions.heartbeatTimeout ?? 0),
  modelSteps: msToNumber(modelCallOptions.heartbeatTimeout ?? 0),
  // No heartbeat on the short ledger post: its start-to-close timeout is what notices.
  postInvoiceToLedger: msToNumber(ledgerOptions.startToCloseTimeout ?? 0),
};

export interface KillRecovery {
  worker: string;
  /** SIGKILL → the restarted process polls again. */
  workerBackMs: number | null;
  /** Steps that were running on the killed worker and ran again after their timeout. */
  interruptedSteps: number;
  /** SIGKILL → the last of those steps running again (null: the kill caught no step mid-run). */
  stepsRunningAgainMs: number | null;
}

/** Each step that timed out belongs to the last kill, before it ran again, of a worker serving its queue. */
export function recoveries(kills: WorkerKill[], retries: TimedOutRetry[]): KillRecovery[] {
  const perKill = new Map<WorkerKill, TimedOutRetry[]>(kills.map((kill) => [kill, []]));
  for (const retry of retries) {
    const candidates = kills.filter(
      (kill) => taskQueueFor(kill.priority) === retry.taskQueue && kill.at < retry.restartedAt,
    );
    const latest = candidates.at(-1);
    if (latest) perKill.get(latest)?.push(retry);
  }
  return kills.map((kill) => {
    const steps = perKill.get(kill) ?? [];
    return {
      worker: kill.worker,
      workerBackMs: kill.backAfterMs ?? null,
      interruptedSteps: steps.length,
      stepsRunningAgainMs: steps.length === 0 ? null : Math.max(...steps.map((step) => step.restartedAt - kill.at)),
    };
  });
}

export interface LedgerCheck {
  postedJobs: number;
  /** Posted jobs with exactly one entry. */
  exactlyOnce: number;
  /** Jobs with more than one entry: double posts. */
  postedTwice: string[];
  /** Jobs that say posted but have no entry. */
  postedWithoutEntry: string[];
  /** Entries whose job is not a posted job of this run. */
  entriesWithoutJob: string[];
}

export function checkLedger(
  jobs: SubmittedJob[],
  finalStatus: Map<string, string>,
  entries: LedgerEntry[],
): LedgerCheck {
  const byJob = new Map<string, number>();
  for (const entry of entries) byJob.set(entry.jobId, (byJob.get(entry.jobId) ?? 0) + 1);
  const posted = jobs.filter((job) => finalStatus.get(job.jobId) === 'posted').map((job) => job.jobId);
  const postedSet = new Set(posted);
  return {
    postedJobs: posted.length,
    exactlyOnce: posted.filter((jobId) => byJob.get(jobId) === 1).length,
    postedTwice: [...byJob].filter(([, count]) => count > 1).map(([jobId]) => jobId),
    postedWithoutEntry: posted.filter((jobId) => !byJob.has(jobId)),
    entriesWithoutJob: entries.filter((entry) => !postedSet.has(entry.jobId)).map((entry) => entry.id),
  };
}

export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

export function rerunsOf(histories: JobHistory[]) {
  const reruns = histories.flatMap((history) =>
    history.finishedStepsRerun.map((step) => ({ jobId: history.jobId, ...step })),
  );
  return { count: reruns.reduce((sum, step) => sum + step.completions - 1, 0), steps: reruns };
}
