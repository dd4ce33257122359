import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { connectBenchClient, startBenchStack, ZERO_LATENCY_MODEL } from '../bench-stack';
import type { StackOptions } from '../../local/stack/stack';
import { percentile } from '../quota/measure';
import { measureBareCeiling } from './bare-ceiling';
import { BENCH_JOB_KINDS, type BenchJobKind } from './job-kinds';
import { closedLoop, openLoop, type Submitted } from './load';
import { writeServerFigures } from './report';
import { activitiesIn, waitSettled } from './settle';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';

/** Credentials of this run's private stack, generated here (the product has no demo keys). */
const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

/** The Temporal servers the stack can run the benchmark against (`--temporal`). */
const SERVERS: Record<string, Partial<StackOptions>> = {
  dev: {},
};

const OPEN_LOOP_LOAD = 0.8;
const SETTLE_DEADLINE_MS = 10 * 60_000;

/**
 * `npm run bench -- throughput [--jobs 300] [--submitters 16] [--job-type invoice] [--temporal dev] [--open-seconds 30] [--cpu-prof dir]`:
 * capacity, not latency. The model answers at once, so the stack itself is what is measured:
 *  1. flood: `--jobs` jobs through POST /jobs from `--submitters` closed-loop clients; settled jobs/s is jobs ÷ time
 *     from the first submission to the last job closed;
 *  2. the ceiling: as many bare workflows, each running as many no-op activities as a job ran, on the same server;
 *  3. jobs offered open-loop at 80 % of the settled rate just measured, for `--open-seconds`: POST /jobs p50/p99
 *     while the workers run.
 * Writes bench/results/throughput.json (one entry per server and job type).
 */
export async function runThroughputBenchmark(argv: string[]): Promise<void> {
  const jobs = numberFlag(argv, '--jobs', 300);
  const submitters = numberFlag(argv, '--submitters', 16);
  const openSeconds = numberFlag(argv, '--open-seconds', 30);
  const jobTypeName = textFlag(argv, '--job-type', 'invoice');
  const server = textFlag(argv, '--temporal', 'dev');
  // The API's and workers' CPU profiles (node --cpu-prof), written into this folder when the stack stops.
  const cpuProfileDir = flagValue(argv, '--cpu-prof');
  const kind = BENCH_JOB_KINDS[jobTypeName];
  if (!kind) throw new Error(`--job-type is one of ${Object.keys(BENCH_JOB_KINDS).join(', ')}`);
  const serverOptions = SERVERS[server];
  if (!serverOptions) throw new Error(`--temporal is one of ${Object.keys(SERVERS).join(', ')}`);
  const say = (line: string) => console.log(`[throughput ${new Date().toISOString().slice(11, 19)}] ${line}`);

  const { stack, stop } = await startBenchStack('throughput', {
    secrets: SECRETS,
    simulatorEnv: ZERO_LATENCY_MODEL,
    ...serverOptions,
    ...(cpuProfileDir
      ? { productEnv: { NODE_OPTIONS: `--import=${join(__dirname, 'cpu-profiler.mjs')}`, SLOWLANE_CPU_PROFILE_DIR: resolve(cpuProfileDir) } }
      : {}),
  });
  const { client, connection } = await connectBenchClient(stack);
  try {
    const run = randomUUID().slice(0, 8);
    const submit = submitter(stack.urls.api, kind, run);
    say(`${server} server, ${kind.type} jobs: warming up`);
    const warm = await closedLoop(4, 2, (index) => submit(`warm-${index}`));
    await waitSettled(client, warm.ids, SETTLE_DEADLINE_MS);
    const activities = await activitiesIn(client, warm.ids[0] as string);

    say(`flood: ${jobs} jobs from ${submitters} submitters`);
    const flood = await closedLoop(jobs, submitters, (index) => submit(`flood-${index}`));
    const floodSettled = await waitSettled(client, flood.ids, SETTLE_DEADLINE_MS);
    const settledPerSec = jobs / ((floodSettled.lastSettledAt - flood.startedAt) / 1000);
    say(`settled ${settledPerSec.toFixed(1)} jobs/s; the ceiling: ${jobs} bare workflows of ${activities} no-op activities`);

    const bare = await measureBareCeiling(client, stack.urls.temporal, {
      count: jobs,
      submitters,
      activities,
      deadlineMs: SETTLE_DEADLINE_MS,
    });
    say(`bare ${bare.settledPerSec.toFixed(1)} workflows/s`);

    const openLoopPerSec = settledPerSec * OPEN_LOOP_LOAD;
    const openLoopJobs = Math.max(1, Math.round(openLoopPerSec * openSeconds));
    say(`open loop: ${openLoopJobs} jobs at ${openLoopPerSec.toFixed(1)}/s`);
    const open = await openLoop(openLoopJobs, openLoopPerSec, (index) => submit(`open-${index}`));
    const openSettled = await waitSettled(client, open.ids, SETTLE_DEADLINE_MS);

    const figures = {
      jobType: kind.type,
      jobs,
      submitters,
      activitiesPerJob: activities,
      settledPerSec,
      bareSettledPerSec: bare.settledPerSec,
      ratio: settledPerSec / bare.settledPerSec,
      floodAcceptP50Ms: percentile(flood.acceptMs, 50),
      floodAcceptP99Ms: percentile(flood.acceptMs, 99),
      openLoopPerSec,
      openLoopJobs,
      acceptP50Ms: percentile(open.acceptMs, 50),
      acceptP99Ms: percentile(open.acceptMs, 99),
      failed: floodSettled.failed + openSettled.failed + bare.failed,
      finishedAt: new Date().toISOString(),
      command: `npm run bench -- throughput --jobs ${jobs} --submitters ${submitters} --job-type ${kind.type} --temporal ${server} --open-seconds ${openSeconds}`,
    };
    console.log(JSON.stringify(figures, null, 2));
    say(
      `${kind.type} on ${server}: ${settledPerSec.toFixed(1)} jobs/s = ${(figures.ratio * 100).toFixed(0)} % of the bare ceiling ` +
        `(${bare.settledPerSec.toFixed(1)}/s); POST /jobs at ${openLoopPerSec.toFixed(1)}/s: ` +
        `p50 ${figures.acceptP50Ms.toFixed(0)} ms, p99 ${figures.acceptP99Ms.toFixed(0)} ms`,
    );
    await writeServerFigures(server, figures);
  } finally {
    await connection.close();
    await stop();
  }
}

function submitter(apiUrl: string, kind: BenchJobKind, run: string) {
  return async (marker: string): Promise<Submitted> => {
    const { body, headers } = kind.request(`${run}-${marker}`);
    const startedAt = performance.now();
    const response = await fetch(`${apiUrl}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'idempotency-key': `throughput-${run}-${marker}`, ...headers },
      body,
    });
    const answer = (await response.json()) as { jobId?: string };
    const acceptMs = performance.now() - startedAt;
    if (response.status !== 202 || !answer.jobId) throw new Error(`POST /jobs answered ${response.status}: ${JSON.stringify(answer)}`);
    return { id: answer.jobId, acceptMs };
  };
}

function numberFlag(argv: string[], name: string, fallback: number): number {
  const raw = flagValue(argv, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number`);
  return value;
}

function textFlag(argv: string[], name: string, fallback: string): string {
  return flagValue(argv, name) ?? fallback;
}

/** `--name value` or `--name=value`. */
function flagValue(argv: string[], name: string): string | undefined {
  const joined = argv.find((arg) => arg.startsWith(`${name}=`));
  if (joined) return joined.slice(name.length + 1);
  const index = argv.indexOf(name);
  return index < 0 ? undefined : argv[index + 1];
}
