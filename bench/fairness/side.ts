import { setTimeout as sleep } from 'node:timers/promises';
import { generateLocalSecrets, type LocalSecrets } from '../../local/stack/local-secrets';
import { startLocalRedis } from '../../local/stack/redis-server';
import type { Stack } from '../../local/stack/stack';
import { connectBenchClient, startBenchStack } from '../bench-stack';
import { benchDocument } from '../quota/documents';
import { type JobTimes, listJobTimes, simulatorCalls } from '../quota/observe';
import type { FairnessBenchSettings, FairnessSide } from './settings';
import { type JobTimeDetail, readJobTimeBreakdown } from './time-breakdown';

export type TenantRole = 'flood' | 'small';

export interface FairnessJob {
  jobId: string;
  tenant: TenantRole;
  marker: string;
  submittedAt: number;
}

/** Everything one side observed; measure.ts turns it into the figures. */
export interface FairnessObservation {
  side: FairnessSide;
  jobs: FairnessJob[];
  windowStart: number;
  windowEnd: number;
  finishedAt: number;
  times: Map<string, JobTimes>;
  /** Answered provider calls of each small-tenant job, from the simulator's call log (model time = calls × latency). */
  smallAnsweredCalls: Map<string, number>;
  /** Where the time went, from each job's history: every small-tenant job, and the flood's jobs done in the window. */
  breakdowns: Map<string, JobTimeDetail>;
  env: Record<string, string>;
}

/** Two tenants with the run's weights; the stack hands SLOWLANE_TENANTS to the product as this JSON. */
function secretsWithWeights(settings: FairnessBenchSettings): LocalSecrets {
  const secrets = generateLocalSecrets(['flood', 'small']);
  return {
    ...secrets,
    tenants: secrets.tenants.map((tenant) =>
      Object.assign({}, tenant, { fairnessWeight: settings.weights[tenant.id as TenantRole] }),
    ),
  };
}

async function submit(stack: Stack, apiKey: string, marker: string): Promise<string> {
  const form = new FormData();
  form.set('type', 'invoice');
  form.set('priority', 'bulk');
  form.set('file', new Blob([benchDocument(marker)]), `${marker}.txt`);
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${stack.urls.api}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': marker },
      body: form,
    });
    const body = (await response.json()) as { jobId?: string; error?: { message?: string } };
    if (response.status === 202 && body.jobId) return body.jobId;
    // The key makes a retried upload the same job, so a hiccup of the loaded API costs nothing.
    if (attempt >= 3) throw new Error(`POST /jobs answered ${response.status}: ${body.error?.message ?? ''}`);
    await sleep(500);
  }
}

/**
 * One side on a private stack: the flooding tenant's backlog first, then one bulk worker, then the small tenant's
 * jobs at an even pace through the first half of the window. `fair` starts jobs with the tenant as Temporal's
 * fairness key; `fifo` without (TEMPORAL_FAIRNESS_KEYS=off), everything else the same.
 */
export async function runFairnessSide(
  side: FairnessSide,
  settings: FairnessBenchSettings,
  runId: string,
  report: (line: string) => void,
): Promise<FairnessObservation> {
  const secrets = secretsWithWeights(settings);
  const apiKeyOf = (role: TenantRole) => secrets.tenants.find((tenant) => tenant.id === role)?.apiKey ?? '';
  const sim = settings.simulator;
  const redis = await startLocalRedis();
  const env: Record<string, string> = {
    TEMPORAL_FAIRNESS_KEYS: side === 'fair' ? 'true' : 'false',
    // Tenants share the live budget here; bulk through the Message Batches lane is the batch bench's.
    BATCH_LANE: 'off',
    GATEWAY_ITPM: String(sim.inputTokensPerMinute),
    GATEWAY_OTPM: String(sim.outputTokensPerMinute),
    GATEWAY_RPM: String(sim.requestsPerMinute),
    GATEWAY_EXPECTED_LATENCY: `${sim.latencyMs}ms`,
    GATEWAY_EXPECTED_INPUT_TOKENS: '500',
    GATEWAY_EXPECTED_OUTPUT_TOKENS: '150',
    REDIS_URL: redis.url,
  };
  try {
    report(`${side}: starting a private stack`);
    const bench = await startBenchStack(`fairness-${side}`, {
      secrets,
      productEnv: env,
      simulatorEnv: {
        SIM_ITPM: String(sim.inputTokensPerMinute),
        SIM_OTPM: String(sim.outputTokensPerMinute),
        SIM_RPM: String(sim.requestsPerMinute),
        SIM_LATENCY_BASE_MS: String(sim.latencyMs),
        SIM_LATENCY_PER_OUTPUT_TOKEN_MS: '0',
        LOG_LEVEL: 'warn',
      },
      without: ['worker'],
      report: (line) => report(`${side}: ${line}`),
    });
    const { stack } = bench;
    try {
      const jobs: FairnessJob[] = [];
      let next = 0;
      const lane = async () => {
        while (next < settings.floodJobs) {
          // Fixed width: the call log matches substrings, so no marker may be the start of another.
          const marker = `FAIR-${runId}-${side}-flood-${String(next++).padStart(5, '0')}`;
          const submittedAt = Date.now();
          jobs.push({ jobId: await submit(stack, apiKeyOf('flood'), marker), tenant: 'flood', marker, submittedAt });
          if (jobs.length % 100 === 0) report(`${side}: ${jobs.length}/${settings.floodJobs} flood jobs submitted`);
        }
      };
      report(`${side}: the flooding tenant submits ${settings.floodJobs} bulk jobs`);
      await Promise.all(Array.from({ length: settings.submitConcurrency }, lane));
      await stack.startWorker('worker-bulk', { WORKER_PRIORITIES: 'bulk' });
      const windowStart = Date.now();
      report(
        `${side}: worker started; window open for ${settings.windowMs / 1000}s, ${settings.smallJobs} small-tenant jobs arrive`,
      );
      const spacing = (settings.windowMs * 0.5) / Math.max(1, settings.smallJobs);
      for (let index = 0; index < settings.smallJobs; index++) {
        await sleep(Math.max(0, windowStart + index * spacing - Date.now()));
        const marker = `FAIR-${runId}-${side}-small-${String(index).padStart(5, '0')}`;
        const submittedAt = Date.now();
        jobs.push({ jobId: await submit(stack, apiKeyOf('small'), marker), tenant: 'small', marker, submittedAt });
      }
      await sleep(Math.max(0, windowStart + settings.windowMs - Date.now()));
      const windowEnd = Date.now();
      const small = jobs.filter((job) => job.tenant === 'small');
      let times = await listJobTimes(stack);
      while (Date.now() < windowEnd + settings.graceMs && small.some((job) => !times.get(job.jobId)?.closedAt)) {
        await sleep(3_000);
        times = await listJobTimes(stack);
      }
      const finishedAt = Date.now();
      const smallAnsweredCalls = new Map<string, number>();
      for (const job of small) {
        const calls = await simulatorCalls(stack.urls.simulator, job.marker);
        smallAnsweredCalls.set(job.jobId, calls.filter((call) => call.status === 200).length);
      }
      const breakdowns = new Map<string, JobTimeDetail>();
      const { client, connection } = await connectBenchClient(stack);
      try {
        const closedInWindow = (jobId: string) => (times.get(jobId)?.closedAt ?? Infinity) <= windowEnd;
        for (const job of jobs.filter((job) => job.tenant === 'small' || closedInWindow(job.jobId)))
          breakdowns.set(job.jobId, await readJobTimeBreakdown(client, job.jobId, finishedAt));
      } finally {
        await connection.close();
      }
      report(`${side}: done; stopping the stack`);
      return { side, jobs, windowStart, windowEnd, finishedAt, times, smallAnsweredCalls, breakdowns, env };
    } finally {
      await bench.stop();
    }
  } finally {
    await redis.stop();
  }
}
