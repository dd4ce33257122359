import { setTimeout as sleep } from 'node:timers/promises';
import { generateLocalSecrets, type LocalSecrets } from '../../local/stack/local-secrets';
import { startLocalRedis } from '../../local/stack/redis-server';
import { connectBenchClient } from '../bench-stack';
import {
  gatewayBudgetEnv,
  jobMarker,
  startSideStack,
  submitAtEvenPace,
  submitConcurrently,
  submitMarkedInvoice,
  waitForJobsToClose,
} from '../budget-side';
import { type JobTimes, simulatorCalls } from '../quota/observe';
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
  const redis = await startLocalRedis();
  const env: Record<string, string> = {
    TEMPORAL_FAIRNESS_KEYS: side === 'fair' ? 'true' : 'false',
    // Tenants share the live budget here; bulk through the Message Batches lane is the batch bench's.
    BATCH_LANE: 'off',
    ...gatewayBudgetEnv(settings.simulator),
    REDIS_URL: redis.url,
  };
  try {
    report(`${side}: starting a private stack`);
    const bench = await startSideStack('fairness', side, {
      secrets,
      productEnv: env,
      quota: settings.simulator,
      report,
    });
    const { stack } = bench;
    try {
      const submit = async (tenant: TenantRole, index: number): Promise<FairnessJob> => {
        const marker = jobMarker('FAIR', runId, side, tenant, index);
        const submittedAt = Date.now();
        return {
          jobId: await submitMarkedInvoice(stack, apiKeyOf(tenant), marker, 'bulk'),
          tenant,
          marker,
          submittedAt,
        };
      };
      report(`${side}: the flooding tenant submits ${settings.floodJobs} bulk jobs`);
      const jobs = await submitConcurrently(
        settings.floodJobs,
        settings.submitConcurrency,
        (index) => submit('flood', index),
        (submitted) => report(`${side}: ${submitted}/${settings.floodJobs} flood jobs submitted`),
      );
      await stack.startWorker('worker-bulk', { WORKER_PRIORITIES: 'bulk' });
      const windowStart = Date.now();
      report(
        `${side}: worker started; window open for ${settings.windowMs / 1000}s, ${settings.smallJobs} small-tenant jobs arrive`,
      );
      const small = await submitAtEvenPace(settings.smallJobs, windowStart, settings.windowMs * 0.5, (index) =>
        submit('small', index),
      );
      jobs.push(...small);
      await sleep(Math.max(0, windowStart + settings.windowMs - Date.now()));
      const windowEnd = Date.now();
      const times = await waitForJobsToClose(
        stack,
        small.map((job) => job.jobId),
        windowEnd + settings.graceMs,
        3_000,
      );
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
