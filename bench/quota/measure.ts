import type { QuotaBenchSettings } from './settings';
import type { SimulatorStats } from './observe';
import type { InteractiveCall, SideObservation } from './side';

export interface TokensPerJob {
  input: number;
  output: number;
  calls: number;
}

export interface SideFigures {
  /**
   * Completed jobs per minute in the window ÷ the ceiling. The ceiling is quota ÷ tokens per job, plus what the
   * provider's bucket held at the start of the window beyond what it held at the end (tokens the window could
   * spend on top of the refill), so a bucket not yet drained cannot pass for throughput.
   */
  goodputRatio: number;
  completedJobsPerMin: number;
  ceilingJobsPerMin: number;
  /** The quota alone ÷ tokens per job, without the bucket correction. */
  quotaJobsPerMin: number;
  providerInputLeft: { atWindowStart: number; atWindowEnd: number };
  /** Share of provider calls in the window answered 429. */
  rate429: number;
  providerCalls: number;
  /** Input tokens sent in the window on calls the provider refused. */
  wastedTokens: number;
  interactiveP50Ms: number;
  interactiveP95Ms: number;
  /** Submit to done minus the model's own time (fixed latency × answered calls): queueing and retries. */
  interactiveP50WaitMs: number;
  interactiveP95WaitMs: number;
  interactiveSubmitted: number;
  /** Interactive jobs not done by the end of the grace period; their times count as of then (a lower bound). */
  interactiveUnfinished: number;
  bulkJobsPerMin: number;
  bulkQueuedAtWindowStart: number;
  bulkQueuedAtWindowEnd: number;
  /**
   * Input tokens the provider billed during the idle spell (backlog, no interactive job) ÷ what the quota offered
   * in it: the refill plus what the provider's bucket gave up. Target ≥ 0.9.
   */
  bulkShareOfIdleBudget: number;
  /** The provider's input tokens left at the idle spell's end ÷ its limit: what the interactive reserve holds back. */
  idleHeldBackShare: number;
  /** Jobs parked as dead letters or failed by the end. */
  jobsFailed: number;
  /** Each interactive job in submission order: submit→done and the wait without model time (ms). */
  interactiveJobs: Array<{
    latencyMs: number;
    waitMs: number;
    answeredCalls: number;
    refusedCalls: number;
    finished: boolean;
  }>;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** What a finished job cost, averaged over the sampled jobs' answered calls. */
export function tokensPerJob(observations: SideObservation[]): TokensPerJob | undefined {
  const jobs = observations
    .flatMap((observation) => observation.completedJobCalls)
    .map((calls) => calls.filter((call) => call.status === 200));
  const finished = jobs.filter((calls) => calls.length > 0);
  if (finished.length === 0) return undefined;
  const sum = (pick: (call: InteractiveCall) => number) =>
    finished.reduce((total, calls) => total + calls.reduce((inner, call) => inner + pick(call), 0), 0) /
    finished.length;
  return { input: sum((call) => call.inputTokens), output: sum((call) => call.outputTokens), calls: sum(() => 1) };
}

/** Jobs per minute the quota allows at most: the tightest of the three limits. */
export function ceilingJobsPerMin(settings: QuotaBenchSettings, perJob: TokensPerJob): number {
  const sim = settings.simulator;
  return Math.min(
    sim.inputTokensPerMinute / perJob.input,
    sim.outputTokensPerMinute / perJob.output,
    sim.requestsPerMinute / perJob.calls,
  );
}

function idleBudget(
  observation: SideObservation,
  settings: QuotaBenchSettings,
): Pick<SideFigures, 'bulkShareOfIdleBudget' | 'idleHeldBackShare'> {
  const { idle } = observation;
  const itpm = settings.simulator.inputTokensPerMinute;
  // What the provider's input bucket counts: fresh input and cache writes (cache reads do not count).
  const counted = (stats: SimulatorStats) => stats.inputTokens + stats.cacheCreationInputTokens;
  const billed = counted(idle.stats[1]) - counted(idle.stats[0]);
  const offered = (itpm * (idle.endedAt - idle.startedAt)) / 60_000 + (idle.inputLeft[0] - idle.inputLeft[1]);
  return { bulkShareOfIdleBudget: offered > 0 ? billed / offered : 0, idleHeldBackShare: idle.inputLeft[1] / itpm };
}

export function measureSide(
  observation: SideObservation,
  settings: QuotaBenchSettings,
  perJob: TokensPerJob,
): SideFigures {
  const { windowStart, windowEnd, times, jobs } = observation;
  const minutes = (windowEnd - windowStart) / 60_000;
  const closedIn = (jobId: string) => {
    const closedAt = times.get(jobId)?.closedAt;
    return closedAt !== undefined && closedAt >= windowStart && closedAt <= windowEnd;
  };
  const openAt = (jobId: string, at: number) => {
    const closedAt = times.get(jobId)?.closedAt;
    return closedAt === undefined || closedAt > at;
  };
  const completed = jobs.filter((job) => closedIn(job.jobId)).length;
  const bulk = jobs.filter((job) => job.kind === 'bulk');
  const quotaCeiling = ceilingJobsPerMin(settings, perJob);
  // Input tokens bind in this benchmark; what the bucket gave up during the window is extra input capacity.
  const { atWindowStart, atWindowEnd } = observation.providerInputLeft;
  const ceiling = quotaCeiling + (atWindowStart - atWindowEnd) / perJob.input / minutes;

  const start = observation.statsAtWindowStart;
  const end = observation.statsAtWindowEnd;
  const providerCalls = end.requests - start.requests;
  const refused429 = (end.byStatus['429'] ?? 0) - (start.byStatus['429'] ?? 0);

  const interactive = jobs.filter((job) => job.kind === 'interactive');
  const latencies = interactive.map(
    (job) => (times.get(job.jobId)?.closedAt ?? observation.finishedAt) - job.submittedAt,
  );
  const answered = interactive.map(
    (job) => (observation.interactiveCalls.get(job.jobId) ?? []).filter((call) => call.status === 200).length,
  );
  const waits = interactive.map(
    (_, index) => (latencies[index] as number) - (answered[index] as number) * settings.simulator.latencyMs,
  );
  const failed = [...times.values()].filter(
    (job) => job.jobStatus === 'dead_letter' || job.jobStatus === 'failed',
  ).length;

  return {
    goodputRatio: completed / minutes / ceiling,
    completedJobsPerMin: completed / minutes,
    ceilingJobsPerMin: ceiling,
    quotaJobsPerMin: quotaCeiling,
    providerInputLeft: observation.providerInputLeft,
    rate429: providerCalls > 0 ? refused429 / providerCalls : 0,
    providerCalls,
    wastedTokens: end.rejectedInputTokens - start.rejectedInputTokens,
    interactiveP50Ms: percentile(latencies, 50),
    interactiveP95Ms: percentile(latencies, 95),
    interactiveP50WaitMs: percentile(waits, 50),
    interactiveP95WaitMs: percentile(waits, 95),
    interactiveSubmitted: interactive.length,
    interactiveUnfinished: interactive.filter((job) => times.get(job.jobId)?.closedAt === undefined).length,
    bulkJobsPerMin: bulk.filter((job) => closedIn(job.jobId)).length / minutes,
    bulkQueuedAtWindowStart: bulk.filter((job) => openAt(job.jobId, windowStart)).length,
    bulkQueuedAtWindowEnd: bulk.filter((job) => openAt(job.jobId, windowEnd)).length,
    ...idleBudget(observation, settings),
    jobsFailed: failed,
    interactiveJobs: interactive.map((job, index) => ({
      latencyMs: latencies[index] as number,
      waitMs: waits[index] as number,
      answeredCalls: answered[index] as number,
      refusedCalls: (observation.interactiveCalls.get(job.jobId) ?? []).length - (answered[index] as number),
      finished: times.get(job.jobId)?.closedAt !== undefined,
    })),
  };
}
