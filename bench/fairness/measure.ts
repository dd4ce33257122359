import { percentile } from '../quota/measure';
import type { FairnessBenchSettings } from './settings';
import type { FairnessObservation, TenantRole } from './side';
import type { JobTimeBreakdown, JobTimeDetail } from './time-breakdown';

/** p50 and p95 of each part of a job's time (ms) over a set of jobs. */
export type TimeBreakdownSummary = Record<keyof JobTimeBreakdown, { p50: number; p95: number }> & { jobs: number };

export interface FairnessFigures {
  /**
   * The small tenant's completed jobs in the window ÷ what it was due: its weight's share of all jobs completed
   * in the window, or its whole demand when that was less (max-min fairness). 1.0 = exactly its weighted share.
   */
  smallTenantShareVsWeighted: number;
  /** Submit to done minus the model's own time (answered calls × latency): queueing and retries. */
  smallTenantP95WaitMs: number;
  smallTenantP50WaitMs: number;
  /** The small tenant's share of the jobs completed in the window, and the share its weight gives it. */
  smallShareOfCompleted: number;
  weightedShare: number;
  completedInWindow: { flood: number; small: number };
  smallSubmitted: number;
  /** Small-tenant jobs not done by the end of the grace period; their waits count as of then (a lower bound). */
  smallUnfinished: number;
  floodQueuedAtWindowEnd: number;
  /**
   * Where the time of the small tenant's jobs went (all of them, open ones until the end of the run), and of the
   * flood's jobs completed in the window, for comparison.
   */
  timeBreakdown: { small: TimeBreakdownSummary; flood: TimeBreakdownSummary };
  /** Every small-tenant job in submit order: seconds after the window opened, and where its time went. */
  smallJobs: Array<{ submittedAfterS: number; done: boolean } & JobTimeDetail>;
}

const PARTS: Array<keyof JobTimeBreakdown> = ['queuedBeforeFirstStepMs', 'waitingForBudgetMs', 'inModelCallsMs', 'otherMs'];

export function summarizeBreakdowns(breakdowns: JobTimeBreakdown[]): TimeBreakdownSummary {
  const parts = Object.fromEntries(
    PARTS.map((part) => {
      const values = breakdowns.map((breakdown) => breakdown[part]);
      return [part, { p50: percentile(values, 50), p95: percentile(values, 95) }];
    }),
  ) as Record<keyof JobTimeBreakdown, { p50: number; p95: number }>;
  return { ...parts, jobs: breakdowns.length };
}

export function measureFairness(observation: FairnessObservation, settings: FairnessBenchSettings): FairnessFigures {
  const { jobs, times, windowStart, windowEnd } = observation;
  const closedIn = (jobId: string) => {
    const closedAt = times.get(jobId)?.closedAt;
    return closedAt !== undefined && closedAt >= windowStart && closedAt <= windowEnd;
  };
  const small = jobs.filter((job) => job.tenant === 'small');
  const flood = jobs.filter((job) => job.tenant === 'flood');
  const completed = {
    flood: flood.filter((job) => closedIn(job.jobId)).length,
    small: small.filter((job) => closedIn(job.jobId)).length,
  };
  const total = completed.flood + completed.small;
  const weightedShare = settings.weights.small / (settings.weights.small + settings.weights.flood);
  const due = Math.min(small.length, weightedShare * total);
  const waits = small.map(
    (job) =>
      (times.get(job.jobId)?.closedAt ?? observation.finishedAt) -
      job.submittedAt -
      (observation.smallAnsweredCalls.get(job.jobId) ?? 0) * settings.simulator.latencyMs,
  );
  return {
    smallTenantShareVsWeighted: due > 0 ? completed.small / due : 0,
    smallTenantP95WaitMs: percentile(waits, 95),
    smallTenantP50WaitMs: percentile(waits, 50),
    smallShareOfCompleted: total > 0 ? completed.small / total : 0,
    weightedShare,
    completedInWindow: completed,
    smallSubmitted: small.length,
    smallUnfinished: small.filter((job) => times.get(job.jobId)?.closedAt === undefined).length,
    floodQueuedAtWindowEnd: flood.filter((job) => (times.get(job.jobId)?.closedAt ?? Infinity) > windowEnd).length,
    timeBreakdown: { small: breakdownOf('small'), flood: breakdownOf('flood') },
    smallJobs: small.flatMap((job) => {
      const detail = observation.breakdowns.get(job.jobId);
      if (!detail) return [];
      const done = times.get(job.jobId)?.closedAt !== undefined;
      return [{ submittedAfterS: Math.round((job.submittedAt - windowStart) / 100) / 10, done, ...detail }];
    }),
  };

  function breakdownOf(tenant: TenantRole): TimeBreakdownSummary {
    const of = tenant === 'small' ? small : flood.filter((job) => closedIn(job.jobId));
    return summarizeBreakdowns(
      of.flatMap((job) => {
        const breakdown = observation.breakdowns.get(job.jobId);
        return breakdown ? [breakdown] : [];
      }),
    );
  }
}
