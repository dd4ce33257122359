import { setTimeout as sleep } from 'node:timers/promises';
import type { Priority } from '../../common/task-queues';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import { type LocalRedis, startLocalRedis } from '../../local/stack/redis-server';
import type { Stack } from '../../local/stack/stack';
import type { BenchStack } from '../bench-stack';
import {
  gatewayBudgetEnv,
  jobMarker,
  startSideStack,
  submitAtEvenPace,
  submitConcurrently,
  submitMarkedInvoice,
  waitForJobsToClose,
} from '../budget-side';
import { type JobTimes, providerInputTokensLeft, type SimulatorStats, simulatorCalls, simulatorStats, waitForSteadyProvider } from './observe';
import type { QuotaBenchSettings } from './settings';

export type Side = 'slowlane' | 'naive';

export interface SubmittedJob {
  jobId: string;
  /** The class the benchmark means; the naive side sends everything through one queue regardless. */
  kind: Priority;
  marker: string;
  submittedAt: number;
}

export interface InteractiveCall {
  status: number;
  inputTokens: number;
  outputTokens: number;
}

/** Everything one side observed; measure.ts turns it into the figures. */
export interface SideObservation {
  side: Side;
  jobs: SubmittedJob[];
  windowStart: number;
  windowEnd: number;
  finishedAt: number;
  times: Map<string, JobTimes>;
  /** The spell before the window with no interactive job: provider stats and input tokens left at its ends. */
  idle: { startedAt: number; endedAt: number; stats: [SimulatorStats, SimulatorStats]; inputLeft: [number, number] };
  statsAtWindowStart: SimulatorStats;
  statsAtWindowEnd: SimulatorStats;
  /** The provider's input tokens left when the window opened and closed: what the bucket added to the window. */
  providerInputLeft: { atWindowStart: number; atWindowEnd: number };
  /** Provider calls of each interactive job, from the simulator's call log. */
  interactiveCalls: Map<string, InteractiveCall[]>;
  /** Provider calls of a sample of completed jobs: what a job costs in tokens. */
  completedJobCalls: InteractiveCall[][];
  env: Record<string, string>;
}

/** Credentials of this run's private stack, generated here (the product has no demo keys). */
const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

/** The product's settings on each side: Slowlane as built, or no budget, SDK retries and one queue. */
function productEnv(side: Side, settings: QuotaBenchSettings, redis: LocalRedis | undefined): Record<string, string> {
  // Both sides ask live unless --batch-lane on: this bench measures the live path at the quota ceiling; bulk
  // through the Message Batches lane (half the price, its own limits) is the batch bench's.
  const common = { LOG_LEVEL: 'warn', METRICS_ENABLED: 'false', BATCH_LANE: settings.batchLane ? 'on' : 'off' };
  if (side === 'naive') {
    return {
      ...common,
      GATEWAY_BUDGET: 'off',
      ANTHROPIC_MAX_RETRIES: '2',
      WORKER_MAX_CONCURRENT_ACTIVITIES: String(settings.naiveSlotsPerWorker),
    };
  }
  return {
    ...common,
    ...gatewayBudgetEnv(settings.simulator, settings.interactiveShare),
    ...(redis ? { REDIS_URL: redis.url } : {}),
  };
}

/** The backlog, submitted before any worker runs. */
function submitBacklog(
  stack: Stack,
  side: Side,
  settings: QuotaBenchSettings,
  runId: string,
  report: (line: string) => void,
) {
  return submitConcurrently(
    settings.bulkJobs,
    settings.submitConcurrency,
    async (index): Promise<SubmittedJob> => {
      const marker = jobMarker('BENCH', runId, side, 'bulk', index);
      const submittedAt = Date.now();
      // One queue on the naive side: its bulk jobs go where the interactive ones go.
      const jobId = await submitMarkedInvoice(stack, API_KEY, marker, side === 'naive' ? 'interactive' : 'bulk');
      return { jobId, kind: 'bulk', marker, submittedAt };
    },
    (submitted) => report(`${side}: ${submitted}/${settings.bulkJobs} bulk jobs submitted`),
  );
}

/** Starts a private stack for one side, submits the backlog, then interactive jobs through the window. */
export async function runSide(
  side: Side,
  settings: QuotaBenchSettings,
  runId: string,
  report: (line: string) => void,
): Promise<SideObservation> {
  const redis = side === 'slowlane' ? await startLocalRedis() : undefined;
  const sim = settings.simulator;
  const env = productEnv(side, settings, redis);
  let bench: BenchStack | undefined;
  try {
    report(`${side}: starting a private stack`);
    bench = await startSideStack('quota', side, { secrets: SECRETS, productEnv: env, quota: sim, report });
    const { stack } = bench;
    // The backlog is in place before any worker runs: uploading it then competes with nobody for the two cores,
    // and every side starts its window from the same queue.
    report(`${side}: submitting ${settings.bulkJobs} bulk jobs`);
    const jobs = await submitBacklog(stack, side, settings, runId, report);
    const queues: Priority[] =
      side === 'slowlane' ? ['interactive', 'bulk'] : Array(settings.workers).fill('interactive');
    await Promise.all(
      queues.map((queue, index) => stack.startWorker(`worker-${index + 1}-${queue}`, { WORKER_PRIORITIES: queue })),
    );
    report(`${side}: ${queues.length} workers (${queues.join(', ')}) started`);
    // The provider's bucket starts full: a window opened before that minute of tokens is spent would count it
    // as throughput (measure.ts corrects for what is left). Steady state is a bucket down to what Slowlane keeps
    // for interactive calls — the naive side drains it to zero — give or take a tenth.
    const steady = sim.inputTokensPerMinute * (settings.interactiveShare + 0.1);
    let left = await waitForSteadyProvider(stack.urls.simulator, steady, settings.warmUpLimitMs);
    report(`${side}: provider has ${left} input tokens left of ${sim.inputTokensPerMinute}`);
    report(`${side}: ${settings.idleMs / 1000}s with the backlog and no interactive job`);
    const idleStartedAt = Date.now();
    const idleStats = await simulatorStats(stack.urls.simulator);
    await sleep(settings.idleMs);
    const idleEndedAt = Date.now();
    const idleEndStats = await simulatorStats(stack.urls.simulator);
    const idleEndLeft = await providerInputTokensLeft(stack.urls.simulator);
    const idle: SideObservation['idle'] = {
      startedAt: idleStartedAt,
      endedAt: idleEndedAt,
      stats: [idleStats, idleEndStats],
      inputLeft: [left ?? 0, idleEndLeft ?? 0],
    };
    left = idleEndLeft;
    const windowStart = Date.now();
    const statsAtWindowStart = await simulatorStats(stack.urls.simulator);
    report(
      `${side}: window open for ${settings.windowMs / 1000}s; ${settings.interactiveJobs} interactive jobs arrive in it`,
    );
    // Arrivals spread over the first 80 % of the window, so the last ones can still finish inside it.
    const interactive = await submitAtEvenPace(
      settings.interactiveJobs,
      windowStart,
      settings.windowMs * 0.8,
      async (index): Promise<SubmittedJob> => {
        const marker = jobMarker('BENCH', runId, side, 'interactive', index);
        const submittedAt = Date.now();
        return {
          jobId: await submitMarkedInvoice(stack, API_KEY, marker, 'interactive'),
          kind: 'interactive',
          marker,
          submittedAt,
        };
      },
    );
    await sleep(Math.max(0, windowStart + settings.windowMs - Date.now()));
    const windowEnd = Date.now();
    const statsAtWindowEnd = await simulatorStats(stack.urls.simulator);
    const leftAtWindowEnd = await providerInputTokensLeft(stack.urls.simulator);

    const times = await waitForJobsToClose(
      stack,
      interactive.map((job) => job.jobId),
      windowEnd + settings.graceMs,
      2_000,
    );
    const finishedAt = Date.now();
    const interactiveCalls = new Map<string, InteractiveCall[]>();
    for (const job of interactive)
      interactiveCalls.set(job.jobId, await simulatorCalls(stack.urls.simulator, job.marker));
    const completedJobCalls: InteractiveCall[][] = [];
    for (const job of [...jobs, ...interactive]
      .filter((candidate) => times.get(candidate.jobId)?.closedAt)
      .slice(0, 20)) {
      completedJobCalls.push(await simulatorCalls(stack.urls.simulator, job.marker));
    }
    report(`${side}: done; stopping the stack`);
    return {
      side,
      jobs: [...jobs, ...interactive],
      idle,
      windowStart,
      windowEnd,
      finishedAt,
      times,
      statsAtWindowStart,
      statsAtWindowEnd,
      providerInputLeft: { atWindowStart: left ?? 0, atWindowEnd: leftAtWindowEnd ?? 0 },
      interactiveCalls,
      completedJobCalls,
      env,
    };
  } finally {
    await bench?.stop();
    await redis?.stop();
  }
}
