import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { DEFAULT_POOL } from '../../gateway/budget/token-budget';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import { type LocalRedis, startLocalRedis } from '../../local/stack/redis-server';
import type { BenchStack } from '../bench-stack';
import { gatewayBudgetEnv, jobMarker, startSideStack, submitConcurrently, submitMarkedInvoice } from '../budget-side';
import type { AdmittedCall, MovingFigures, PhaseEdges } from './moving-measure';
import type { MovingLimitSettings } from './moving-settings';
import { listJobTimes, waitForSteadyProvider } from './observe';

export type MovingSide = 'slowlane' | 'naive';

export interface MovingObservation {
  side: MovingSide;
  edges: PhaseEdges[];
  calls: AdmittedCall[];
  followMs: MovingFigures['followMs'];
  jobs: MovingFigures['jobs'];
  env: Record<string, string>;
}

const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;
const REDIS_PREFIX = 'bench-moving';

/** Slowlane as built on a shared Redis budget, or the naive way: no budget, the SDK's own retries. */
function productEnv(side: MovingSide, settings: MovingLimitSettings, redis: LocalRedis | undefined) {
  const common = { LOG_LEVEL: 'warn', METRICS_ENABLED: 'false', BATCH_LANE: 'off' };
  if (side === 'naive') {
    return { ...common, GATEWAY_BUDGET: 'off', ANTHROPIC_MAX_RETRIES: '2', WORKER_MAX_CONCURRENT_ACTIVITIES: '20' };
  }
  return {
    ...common,
    ...gatewayBudgetEnv(settings.simulator),
    ...(redis ? { REDIS_URL: redis.url, GATEWAY_REDIS_PREFIX: REDIS_PREFIX } : {}),
  };
}

interface SimulatorLimits {
  limits: { inputTokensPerMinute: number };
  levels: { input_tokens: number };
}

async function simulatorLimits(url: string, method = 'GET', body?: unknown): Promise<SimulatorLimits> {
  const response = await fetch(`${url}/_sim/limits`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} /_sim/limits answered ${response.status}`);
  return (await response.json()) as SimulatorLimits;
}

/** Every call in the simulator's log, placed when its input left the bucket: an answer came a fixed latency later. */
async function admittedCalls(url: string, latencyMs: number): Promise<AdmittedCall[]> {
  const response = await fetch(`${url}/_sim/calls?limit=10000`);
  const { calls } = (await response.json()) as {
    calls: Array<{ at: string; status: number; inputTokens: number; cacheCreationInputTokens: number }>;
  };
  return calls.map((call) => ({
    admittedAt: Date.parse(call.at) - (call.status === 200 ? latencyMs : 0),
    status: call.status,
    bucketInputTokens: call.inputTokens + call.cacheCreationInputTokens,
  }));
}

/**
 * Milliseconds from `since` until the fleet's pool in Redis holds `limit` as its input limit (learned from an
 * answer's headers; every worker process reads the pool there), or null when it does not before `until`.
 */
async function followTime(redis: Redis, limit: number, since: number, until: number, pollMs: number) {
  const key = `${REDIS_PREFIX}:{${DEFAULT_POOL}}`;
  while (Date.now() < until) {
    if (Number(await redis.hget(key, 'l_input')) === limit) return Date.now() - since;
    await sleep(pollMs);
  }
  return null;
}

/** Tokens say what the provider admitted; jobs say whether that work came to anything (a job failed after its retries wasted it). */
function jobCounts(times: Awaited<ReturnType<typeof listJobTimes>>, edges: readonly PhaseEdges[]): MovingFigures['jobs'] {
  const from = edges[0]?.startedAt ?? 0;
  const to = edges.at(-1)?.endedAt ?? 0;
  const all = [...times.values()];
  const completed = all.filter((job) => job.closedAt !== undefined && job.closedAt >= from && job.closedAt < to).length;
  return {
    completedInPhases: completed,
    completedPerMinute: to > from ? completed / ((to - from) / 60_000) : 0,
    failed: all.filter((job) => job.jobStatus === 'dead_letter' || job.jobStatus === 'failed').length,
  };
}

/**
 * One side: a private stack and Redis, the backlog, `workers` bulk worker processes, then the three phases — the
 * start-up limits, lowered, restored — with the bucket's level read at every edge.
 */
export async function runMovingSide(
  side: MovingSide,
  settings: MovingLimitSettings,
  runId: string,
  report: (line: string) => void,
): Promise<MovingObservation> {
  const redis = side === 'slowlane' ? await startLocalRedis() : undefined;
  const sim = settings.simulator;
  const env = productEnv(side, settings, redis);
  let bench: BenchStack | undefined;
  try {
    report(`${side}: starting a private stack`);
    bench = await startSideStack('quota-moving', side, { secrets: SECRETS, productEnv: env, quota: sim, report });
    const { stack } = bench;
    const url = stack.urls.simulator;
    report(`${side}: submitting ${settings.bulkJobs} bulk jobs`);
    await submitConcurrently(
      settings.bulkJobs,
      settings.submitConcurrency,
      (index) => submitMarkedInvoice(stack, API_KEY, jobMarker('MOVING', runId, side, 'bulk', index), 'bulk'),
      (submitted) => report(`${side}: ${submitted}/${settings.bulkJobs} bulk jobs submitted`),
    );
    for (let index = 1; index <= settings.workers; index++) {
      await stack.startWorker(`worker-${index}-bulk`, { WORKER_PRIORITIES: 'bulk' });
    }
    report(`${side}: ${settings.workers} bulk workers started`);
    // The phases start once the fleet has spent the provider's full bucket (steady state).
    const left = await waitForSteadyProvider(url, sim.inputTokensPerMinute * 0.15, settings.warmUpLimitMs);
    report(`${side}: provider has ${left} input tokens left of ${sim.inputTokensPerMinute}; phases start`);

    const edges: PhaseEdges[] = [];
    const followMs: MovingFigures['followMs'] = { lowered: null, restored: null };
    let start = await simulatorLimits(url);
    let startedAt = Date.now();
    const phase = async (name: PhaseEdges['name'], ms: number, follow?: Promise<number | null>) => {
      await sleep(Math.max(0, startedAt + ms - Date.now()));
      const end = await simulatorLimits(url);
      edges.push({
        name,
        startedAt,
        endedAt: Date.now(),
        inputLimitPerMinute: start.limits.inputTokensPerMinute,
        levelAtStart: start.levels.input_tokens,
        levelAtEnd: end.levels.input_tokens,
      });
      return follow ? await follow : null;
    };
    const change = async (method: 'PUT' | 'DELETE', phaseMs: number, body?: unknown) => {
      start = await simulatorLimits(url, method, body);
      startedAt = Date.now();
      const target = start.limits.inputTokensPerMinute;
      report(`${side}: provider input limit now ${target}/min`);
      // Wrapped, so awaiting the change does not wait for the fleet to follow it.
      return {
        follow: redis
          ? followTime(redis.client(), target, startedAt, startedAt + phaseMs, settings.followPollMs)
          : Promise.resolve(null),
      };
    };

    await phase('full', settings.phases.fullMs);
    const lowering = await change('PUT', settings.phases.loweredMs, { scale: settings.lowerScale });
    followMs.lowered = await phase('lowered', settings.phases.loweredMs, lowering.follow);
    const restoring = await change('DELETE', settings.phases.restoredMs);
    followMs.restored = await phase('restored', settings.phases.restoredMs, restoring.follow);
    // Answers of calls admitted in the last phase arrive up to a latency later.
    await sleep(sim.latencyMs + 500);
    const calls = await admittedCalls(url, sim.latencyMs);
    const jobs = jobCounts(await listJobTimes(stack), edges);
    report(`${side}: done; stopping the stack`);
    return { side, edges, calls, followMs, jobs, env };
  } finally {
    await bench?.stop();
    await redis?.stop();
  }
}
