import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_SERVERS, connectBenchClient, startBenchStack, ZERO_LATENCY_MODEL } from '../bench-stack';
import type { StackOptions } from '../../local/stack/stack';
import { readBenchFlags } from '../bench-flags';
import { percentile } from '../quota/measure';
import { startBareCeiling } from './bare-ceiling';
import { addCpu, cpuByGroup, type CpuReading, cpuSpent, noCpu, readCpu } from '../cpu-meter';
import { readLoopDelays } from './loop-delay';
import { BENCH_JOB_KINDS, type BenchJobKind } from './job-kinds';
import { closedLoop, openLoop, type Submitted } from './load';
import { writeServerFigures } from './report';
import { activitiesIn, waitSettled } from './settle';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';

/** Credentials of this run's private stack, generated here (the product has no demo keys). */
const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

interface SideTotals {
  jobs: number;
  seconds: number;
  failed: number;
  acceptMs: number[];
  /** CPU ms each group of processes spent during this side's rounds. */
  cpu: CpuReading;
  /** Jobs settled in each second of each round, from the round's first submission (--timeline). */
  timeline: number[][];
  /** [from, to] epoch ms of each round (--loop-delay reads the samples inside them). */
  windows: Array<[number, number]>;
}

function sideTotals(): SideTotals {
  return { jobs: 0, seconds: 0, failed: 0, acceptMs: [], cpu: noCpu(), timeline: [], windows: [] };
}

/** CPU ms per job of each group, rounded to 0.1 ms. */
function perJob(totals: SideTotals): CpuReading {
  return cpuByGroup((group) => Math.round((totals.cpu[group] / totals.jobs) * 10) / 10);
}

/** All the machine's CPU a side spent per job, whichever process spent it. */
function machineMs(reading: CpuReading): number {
  return Object.values(reading).reduce((sum, ms) => sum + ms, 0);
}

/** How many of `settledAt` fall into each second from `startedAt`. */
function perSecond(startedAt: number, settledAt: number[]): number[] {
  const counts: number[] = [];
  for (const at of settledAt) {
    const second = Math.max(0, Math.floor((at - startedAt) / 1000));
    while (counts.length <= second) counts.push(0);
    counts[second] = (counts[second] ?? 0) + 1;
  }
  return counts;
}

const OPEN_LOOP_LOAD = 0.8;
const SETTLE_DEADLINE_MS = 10 * 60_000;

const USAGE = `npm run bench -- throughput [--jobs 300] [--submitters 16] [--job-type invoice|order.score] [--temporal dev|postgres]
                                [--open-seconds 30] [--rounds 4] [--timeline] [--loop-delay] [--cpu-prof dir]`;

/**
 * `npm run bench -- throughput [--jobs 300] [--submitters 16] [--job-type invoice|order.score] [--temporal dev|postgres]
 * [--open-seconds 30] [--rounds 4] [--timeline] [--loop-delay] [--cpu-prof dir]`: capacity, not latency. The model answers at once, so the stack
 * itself is what is measured:
 *  1. flood: `--jobs` jobs through POST /jobs from `--submitters` closed-loop clients, in `--rounds` rounds; a round's
 *     time runs from its first submission to its last job closed, and settled jobs/s is jobs ÷ the rounds' times;
 *  2. the ceiling: as many bare workflows, each running as many no-op activities as a job ran, on the same server,
 *     in rounds that alternate with the product's (A B B A …), so both sides see the same machine;
 *  3. jobs offered open-loop at 80 % of the settled rate just measured, for `--open-seconds`: POST /jobs p50/p99
 *     while the workers run.
 * Writes bench/results/throughput.json (one entry per server and job type), with the CPU each side spent per job.
 * To see where the time goes: `--timeline` prints jobs settled per second of each round, `--loop-delay` the API's
 * and workers' event-loop delay during the product's rounds, `--cpu-prof <dir>` has node write the API's and
 * workers' CPU profiles, one per thread (the workflow sandbox runs in the workers' threads), when the stack stops.
 */
export async function runThroughputBenchmark(argv: string[]): Promise<void> {
  const flags = readBenchFlags(
    argv,
    ['jobs', 'submitters', 'open-seconds', 'rounds', 'job-type', 'temporal', 'cpu-prof'],
    USAGE,
    ['timeline', 'loop-delay'],
  );
  const jobs = flags.count('jobs', 300, 1);
  const submitters = flags.count('submitters', 16, 1);
  const openSeconds = flags.count('open-seconds', 30, 1);
  const rounds = flags.count('rounds', 4, 1);
  const jobTypeName = flags.choice('job-type', Object.keys(BENCH_JOB_KINDS), 'invoice');
  const server = flags.choice('temporal', Object.keys(BENCH_SERVERS), 'dev');
  const cpuProfileDir = flags.text('cpu-prof');
  const showTimeline = flags.on('timeline');
  const loopDelayDir = flags.on('loop-delay') ? await mkdtemp(join(tmpdir(), 'slowlane-loop-delay-')) : undefined;
  if (cpuProfileDir) await mkdir(resolve(cpuProfileDir), { recursive: true });
  const kind = BENCH_JOB_KINDS[jobTypeName] as BenchJobKind;
  const serverOptions = BENCH_SERVERS[server] as Partial<StackOptions>;
  const say = (line: string) => console.log(`[throughput ${new Date().toISOString().slice(11, 19)}] ${line}`);

  const { stack, stop } = await startBenchStack('throughput', {
    secrets: SECRETS,
    simulatorEnv: ZERO_LATENCY_MODEL,
    ...serverOptions,
    ...(cpuProfileDir ? { productNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfileDir)}`] } : {}),
    ...(loopDelayDir
      ? { productEnv: { NODE_OPTIONS: `--import=${join(__dirname, 'loop-delay.mjs')}`, SLOWLANE_LOOP_DELAY_DIR: loopDelayDir } }
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

    const bare = await startBareCeiling(client, stack.urls.temporal, activities);
    // Rounds alternate A B B A …, so a machine that grows busier or quieter during the run (other engineers' tests)
    // weighs on both sides alike; each side's rate is all its jobs over the sum of its rounds' times.
    const product = sideTotals();
    const ceiling = sideTotals();
    try {
      for (let round = 0; round < rounds; round++) {
        const count = Math.round((jobs * (round + 1)) / rounds) - Math.round((jobs * round) / rounds);
        for (const side of round % 2 === 0 ? (['product', 'bare'] as const) : (['bare', 'product'] as const)) {
          const cpuBefore = readCpu(stack);
          const startedAtEpoch = Date.now();
          const load =
            side === 'product'
              ? await closedLoop(count, submitters, (index) => submit(`flood-${round}-${index}`))
              : await bare.flood(count, submitters, String(round));
          const settled = await waitSettled(side === 'product' ? client : bare.client, load.ids, SETTLE_DEADLINE_MS);
          const totals = side === 'product' ? product : ceiling;
          addCpu(totals.cpu, cpuSpent(cpuBefore, readCpu(stack)));
          totals.windows.push([startedAtEpoch, Date.now()]);
          const timeline = perSecond(load.startedAt, settled.settledAt);
          totals.timeline.push(timeline);
          const seconds = (settled.lastSettledAt - load.startedAt) / 1000;
          totals.jobs += count;
          totals.seconds += seconds;
          totals.failed += settled.failed;
          totals.acceptMs.push(...load.acceptMs);
          say(`round ${round + 1}/${rounds} ${side}: ${count} in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(1)}/s)`);
          if (showTimeline) say(`  settled per second: ${timeline.join(' ')}`);
        }
      }
    } finally {
      await bare.close();
    }
    const settledPerSec = product.jobs / product.seconds;
    const bareSettledPerSec = ceiling.jobs / ceiling.seconds;
    say(`settled ${settledPerSec.toFixed(1)} jobs/s; bare ${bareSettledPerSec.toFixed(1)} workflows/s of ${activities} no-op activities`);
    // The product side's own work is its API and workers (product) plus this process's submitters and waits (bench);
    // the bare side's is this process alone (its worker, client and waits), beside the idle product workers' polls.
    const cpuMsPerJob = { product: perJob(product), bare: perJob(ceiling) };
    const { product: productCpu, bare: bareCpu } = cpuMsPerJob;
    say(
      `CPU per job: API + workers ${productCpu.product} ms, server ${productCpu.server} ms, stand-ins (S3, simulator, ledger) ` +
        `${productCpu.standIns} ms, bench ${productCpu.bench} ms; bare: bench (its worker and client) ${bareCpu.bench} ms, ` +
        `server ${bareCpu.server} ms; the machine's CPU per job, bare over product: ${(machineMs(bareCpu) / machineMs(productCpu)).toFixed(2)}`,
    );
    const loopDelay = loopDelayDir ? await readLoopDelays(loopDelayDir, product.windows) : undefined;
    for (const delay of loopDelay ?? []) {
      say(`event-loop delay of ${delay.process} in the product's rounds: p50 ${delay.p50Ms} ms, p99 ${delay.p99Ms} ms, max ${delay.maxMs} ms`);
    }

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
      rounds,
      bareSettledPerSec,
      ratio: settledPerSec / bareSettledPerSec,
      floodAcceptP50Ms: percentile(product.acceptMs, 50),
      floodAcceptP99Ms: percentile(product.acceptMs, 99),
      openLoopPerSec,
      openLoopJobs,
      acceptP50Ms: percentile(open.acceptMs, 50),
      acceptP99Ms: percentile(open.acceptMs, 99),
      failed: product.failed + openSettled.failed + ceiling.failed,
      cpuMsPerJob,
      ...(showTimeline ? { timeline: { product: product.timeline, bare: ceiling.timeline } } : {}),
      ...(loopDelay ? { loopDelay } : {}),
      finishedAt: new Date().toISOString(),
      command: `npm run bench -- throughput --jobs ${jobs} --submitters ${submitters} --job-type ${kind.type} --temporal ${server} --open-seconds ${openSeconds} --rounds ${rounds}${showTimeline ? ' --timeline' : ''}${loopDelayDir ? ' --loop-delay' : ''}`,
    };
    console.log(JSON.stringify(figures, null, 2));
    say(
      `${kind.type} on ${server}: ${settledPerSec.toFixed(1)} jobs/s = ${(figures.ratio * 100).toFixed(0)} % of the bare ceiling ` +
        `(${bareSettledPerSec.toFixed(1)}/s); POST /jobs at ${openLoopPerSec.toFixed(1)}/s: ` +
        `p50 ${figures.acceptP50Ms.toFixed(0)} ms, p99 ${figures.acceptP99Ms.toFixed(0)} ms`,
    );
    await writeServerFigures(server, figures);
  } finally {
    // The stack first, the client last, right before the process exits: a call the client is still retrying (its
    // timer outlives the call's caller) would otherwise fire on a closed channel while the stack stops and crash the
    // run with "Channel has been shut down" after its figures were written.
    await stop();
    if (loopDelayDir) await rm(loopDelayDir, { recursive: true, force: true });
    await connection.close();
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

