import { setTimeout as sleep } from 'node:timers/promises';
import type { Priority } from '../common/task-queues';
import type { LocalSecrets } from '../local/stack/local-secrets';
import type { Stack } from '../local/stack/stack';
import { type BenchStack, startBenchStack } from './bench-stack';
import { benchDocument } from './quota/documents';
import { type JobTimes, listJobTimes } from './quota/observe';

/**
 * What the quota and fairness benches share. Each side is a private stack whose simulated provider has a small token
 * quota and whose gateway budget is sized to it, fed the clean text invoice marked per job, so each job's provider
 * calls can be found in the simulator's call log.
 */

/** The simulated provider a side runs against. */
export interface ProviderQuota {
  inputTokensPerMinute: number;
  outputTokensPerMinute: number;
  requestsPerMinute: number;
  /** Fixed latency of every answer (no per-token part), so model time is known exactly. */
  latencyMs: number;
  seed?: number;
}

/** The gateway's budget sized to the quota, expecting what a bench invoice's call asks and answers. */
export function gatewayBudgetEnv(quota: ProviderQuota, interactiveShare?: number): Record<string, string> {
  return {
    GATEWAY_ITPM: String(quota.inputTokensPerMinute),
    GATEWAY_OTPM: String(quota.outputTokensPerMinute),
    GATEWAY_RPM: String(quota.requestsPerMinute),
    ...(interactiveShare === undefined ? {} : { GATEWAY_INTERACTIVE_SHARE: String(interactiveShare) }),
    GATEWAY_EXPECTED_LATENCY: `${quota.latencyMs}ms`,
    GATEWAY_EXPECTED_INPUT_TOKENS: '500',
    GATEWAY_EXPECTED_OUTPUT_TOKENS: '150',
  };
}

function simulatorEnv(quota: ProviderQuota): Record<string, string> {
  return {
    SIM_ITPM: String(quota.inputTokensPerMinute),
    SIM_OTPM: String(quota.outputTokensPerMinute),
    SIM_RPM: String(quota.requestsPerMinute),
    SIM_LATENCY_BASE_MS: String(quota.latencyMs),
    SIM_LATENCY_PER_OUTPUT_TOKEN_MS: '0',
    ...(quota.seed === undefined ? {} : { SIM_SEED: String(quota.seed) }),
    LOG_LEVEL: 'warn',
  };
}

export interface SideStackOptions {
  secrets: LocalSecrets;
  productEnv: Record<string, string>;
  quota: ProviderQuota;
  report: (line: string) => void;
}

/**
 * One side's private stack, `<bench>-<side>`, without workers: the bench submits its backlog before any runs, so
 * uploading competes with nobody for the cores and every side starts from the same queue. Its lines, and any
 * process that dies, are reported with the side's name.
 */
export function startSideStack(bench: string, side: string, options: SideStackOptions): Promise<BenchStack> {
  return startBenchStack(`${bench}-${side}`, {
    secrets: options.secrets,
    productEnv: options.productEnv,
    simulatorEnv: simulatorEnv(options.quota),
    without: ['worker'],
    report: (line) => options.report(`${side}: ${line}`),
    onUnexpectedExit: (name, code, logTail) =>
      options.report(`${side}: ${name} exited unexpectedly (code ${code}):\n${logTail}`),
  });
}

/** A job's marker. Fixed width: the call log matches substrings, so no marker may be the start of another. */
export function jobMarker(bench: string, runId: string, side: string, kind: string, index: number): string {
  return `${bench}-${runId}-${side}-${kind}-${String(index).padStart(5, '0')}`;
}

/** Uploads the bench invoice carrying `marker` as a job of the tenant with `apiKey`; answers its job id. */
export async function submitMarkedInvoice(
  stack: Stack,
  apiKey: string,
  marker: string,
  priority: Priority,
): Promise<string> {
  const form = new FormData();
  form.set('type', 'invoice');
  form.set('priority', priority);
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

/** Submits jobs 0 … count-1, `concurrency` at a time; `progress` hears the count at every hundredth. */
export async function submitConcurrently<Job>(
  count: number,
  concurrency: number,
  submitOne: (index: number) => Promise<Job>,
  progress: (submitted: number) => void,
): Promise<Job[]> {
  const jobs: Job[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      jobs.push(await submitOne(next++));
      if (jobs.length % 100 === 0) progress(jobs.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return jobs;
}

/** Submits jobs 0 … count-1 one after another, evenly spaced over `spreadMs` from `startAt`. */
export async function submitAtEvenPace<Job>(
  count: number,
  startAt: number,
  spreadMs: number,
  submitOne: (index: number) => Promise<Job>,
): Promise<Job[]> {
  const spacing = spreadMs / Math.max(1, count);
  const jobs: Job[] = [];
  for (let index = 0; index < count; index++) {
    await sleep(Math.max(0, startAt + index * spacing - Date.now()));
    jobs.push(await submitOne(index));
  }
  return jobs;
}

/** The job times once all of `jobIds` have closed, or as they are at `until`; visibility is read every `pollMs`. */
export async function waitForJobsToClose(
  stack: Stack,
  jobIds: readonly string[],
  until: number,
  pollMs: number,
): Promise<Map<string, JobTimes>> {
  let times = await listJobTimes(stack);
  while (Date.now() < until && jobIds.some((jobId) => times.get(jobId)?.closedAt === undefined)) {
    await sleep(pollMs);
    times = await listJobTimes(stack);
  }
  return times;
}
