import { randomUUID } from 'node:crypto';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { MessageBatchSummary } from '../../common/batch-lane';
import type { JobState } from '../../common/job';
import type { BatchBilling } from '../../local/simulator/batches/message-batch-book';
import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import { readBenchFlags } from '../bench-flags';
import { submitConcurrently } from '../budget-side';
import { BENCH_SERVERS, connectBenchClient, startBenchStack } from '../bench-stack';
import { percentile } from '../quota/measure';
import { workflowSizes } from './workflow-sizes';

const USAGE =
  'usage: npm run bench -- backfill [--jobs 20000] [--invoice-every 20] [--live-jobs 200] [--collect-seconds 240] [--batch-seconds 30] [--max-requests 10000] [--limit-minutes 75] [--temporal dev|postgres] [--bulk-workers 1]';
/** POST /jobs in flight at once: as fast as the API takes them on this machine. */
const SUBMITTERS = 32;
/** Jobs read back at once (describe + result) when the run has settled. */
const READERS = 48;
/** The bulk jobs' deadline: far enough that each waits for its batch. */
const DEADLINE_MS = 60 * 60_000;
const DEADLINE_MARGIN_S = 120;
const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

/**
 * Worker settings a run may try (from the bench's own environment), e.g. WORKFLOW_TASK_POLLS=20; METRICS_ENABLED=true
 * serves each process's /metrics (the SDK's slots, pollers, cache size and schedule-to-start) at the URLs printed.
 */
const WORKER_TUNING = ['METRICS_ENABLED', 'WORKER_MAX_CACHED_WORKFLOWS', 'WORKER_MAX_CONCURRENT_WORKFLOW_TASKS', 'WORKFLOW_TASK_POLLS'];

function workerTuning(): Record<string, string> {
  return Object.fromEntries(WORKER_TUNING.flatMap((name) => (process.env[name] ? [[name, process.env[name] as string]] : [])));
}

interface Submitted {
  jobId: string;
  kind: 'order.score' | 'invoice';
  deadline: number;
}

function orderBody(n: number, deadline: string): string {
  const order = {
    order: { id: `backfill-${n}-${randomUUID()}`, totalAmount: 40 + (n % 17) * 25, currency: 'EUR', itemCount: 1 + (n % 4) },
    customer: { id: `cus-${n}`, accountAgeDays: 400 + n, previousOrders: 10 + (n % 9), previousChargebacks: 0 },
    payment: { method: 'card', billingCountry: 'DE', cardCountry: 'DE', cvvMatch: true, avsMatch: true },
    shipping: { country: 'DE', expedited: false },
  };
  return JSON.stringify({ type: 'order.score', priority: 'bulk', input: order, deadline });
}

function invoiceForm(n: number, deadline: string): FormData {
  const sample = SAMPLE_CATALOG.find((candidate) => candidate.format === 'txt' && candidate.expectedOutcome === 'posted');
  if (sample?.format !== 'txt') throw new Error('the sample catalogue has no clean text invoice');
  const form = new FormData();
  form.set('type', 'invoice');
  form.set('priority', 'bulk');
  form.set('deadline', deadline);
  form.set('file', new Blob([`${sample.text}\nReference: backfill-${n}-${randomUUID()}\n`], { type: 'text/plain' }), `invoice-${n}.txt`);
  return form;
}

/** Submits one job, waiting out a 429 as its Retry-After says. */
async function submit(api: string, side: string, n: number, kind: Submitted['kind'], deadlineMs: number): Promise<Submitted> {
  const deadline = Date.now() + deadlineMs;
  const iso = new Date(deadline).toISOString();
  const key = `${side}-${n}-${randomUUID()}`;
  for (;;) {
    const body = kind === 'invoice' ? invoiceForm(n, iso) : orderBody(n, iso);
    const response = await fetch(`${api}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'idempotency-key': key, ...(kind === 'invoice' ? {} : { 'content-type': 'application/json' }) },
      body,
    });
    if (response.status === 429) {
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(response.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (response.status !== 202) throw new Error(`POST /jobs answered ${response.status}: ${await response.text()}`);
    return { jobId: ((await response.json()) as { jobId: string }).jobId, kind, deadline };
  }
}

interface Settled {
  kind: Submitted['kind'];
  state: JobState;
  withinDeadline: boolean;
  historyLength: number;
}

/** Waits for each job to close (a long poll per job, READERS at once) and reads it back. */
async function readBack(client: Client, jobs: Submitted[], progress: (settled: number) => void = () => undefined): Promise<Settled[]> {
  return submitConcurrently(jobs.length, READERS, async (index) => {
    const job = jobs[index] as Submitted;
    const handle = client.workflow.getHandle(job.jobId);
    const state = (await handle.result()) as JobState;
    const description = await handle.describe();
    const closedAt = description.closeTime?.getTime() ?? Infinity;
    return { kind: job.kind, state, withinDeadline: closedAt <= job.deadline, historyLength: description.historyLength };
  }, progress);
}

/** `work`, or an error once `limit` (epoch ms) has passed. */
async function before<T>(limit: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not done in time`)), Math.max(0, limit - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const costPerJob = (jobs: Settled[]) => jobs.reduce((sum, job) => sum + job.state.usage.costUsd, 0) / Math.max(1, jobs.length);

/** A process's peak (VmHWM) and present (VmRSS) resident memory, in MiB. */
async function rssMiB(pid: number | undefined): Promise<{ peak?: number; atEnd?: number }> {
  if (pid === undefined) return {};
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const mib = (field: string) => {
    const kib = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
    return kib === undefined ? undefined : Math.round(Number(kib) / 1024);
  };
  return { peak: mib('VmHWM'), atEnd: mib('VmRSS') };
}

/** The bulk worker process with the highest peak. */
async function largestRss(pids: Array<number | undefined>): Promise<{ peak?: number; atEnd?: number }> {
  const readings = await Promise.all(pids.map(rssMiB));
  return readings.reduce((most, reading) => ((reading.peak ?? 0) > (most.peak ?? 0) ? reading : most), {});
}

/**
 * `npm run bench -- backfill`: a backfill at production scale through the Message Batches lane (docs/gateway.md#
 * the-batch-lane-at-scale). Submits `--jobs` bulk jobs (order.score, every `--invoice-every`th an invoice) as fast as
 * the API takes them, with a deadline an hour out, into batches of up to `--max-requests`; beside them `--live-jobs`
 * of the same mix with a deadline inside the margin, which take the live path (the price the lane is compared
 * with). Waits for every job and writes bench/results/backfill.json: settled, billedOnce (from the simulator's
 * billing log), costRatio, withinDeadlineShare, the largest history and continue-as-new input per workflow type,
 * the time from each batch's end to its last job answered, and the bulk worker's peak RSS.
 */
export async function runBackfillBenchmark(argv: string[]): Promise<void> {
  const flags = readBenchFlags(
    argv,
    ['jobs', 'invoice-every', 'live-jobs', 'collect-seconds', 'batch-seconds', 'max-requests', 'limit-minutes', 'temporal', 'bulk-workers'],
    USAGE,
  );
  const jobs = flags.count('jobs', 20_000, 1);
  const invoiceEvery = flags.count('invoice-every', 20, 1);
  const liveJobs = flags.count('live-jobs', 200, 1);
  const collectSeconds = flags.count('collect-seconds', 240, 1);
  const batchSeconds = flags.count('batch-seconds', 30, 1);
  const maxRequests = flags.count('max-requests', 10_000, 1);
  const limitMinutes = flags.count('limit-minutes', 75, 1);
  const server = flags.choice('temporal', Object.keys(BENCH_SERVERS), 'dev');
  const bulkWorkers = flags.count('bulk-workers', 1, 1);
  const kindOf = (n: number): Submitted['kind'] => (n % invoiceEvery === invoiceEvery - 1 ? 'invoice' : 'order.score');
  console.log(`backfill: ${jobs} bulk jobs (every ${invoiceEvery}th an invoice), batches of up to ${maxRequests}, ${liveJobs} live jobs beside them`);

  const bench = await startBenchStack('backfill', {
    ...BENCH_SERVERS[server],
    secrets: SECRETS,
    productEnv: {
      BATCH_COLLECT_WINDOW: `${collectSeconds}s`,
      BATCH_MAX_REQUESTS: String(maxRequests),
      BATCH_POLL_INTERVAL: '5s',
      BATCH_DEADLINE_MARGIN: `${DEADLINE_MARGIN_S}s`,
      ...workerTuning(),
    },
    simulatorEnv: { SIM_BATCH_PROCESSING_MS: String(batchSeconds * 1000) },
  });
  // More bulk worker processes, as a deployment scales them on the bulk backlog; each serves the lane's queue too.
  const bulkWorkerNames = ['worker-bulk', ...Array.from({ length: bulkWorkers - 1 }, (_, n) => `worker-bulk-${n + 2}`)];
  await Promise.all(bulkWorkerNames.slice(1).map((name) => bench.stack.startWorker(name, { WORKER_PRIORITIES: 'bulk' })));
  if (process.env.METRICS_ENABLED === 'true') console.log(`metrics: ${JSON.stringify(bench.stack.metricsUrls)}`);
  const { client, connection } = await connectBenchClient(bench.stack);
  const since = new Date(Date.now() - 60_000);
  try {
    const api = bench.stack.urls.api;
    const started = Date.now();
    const liveSide = submitConcurrently(liveJobs, 4, (n) => submit(api, 'live', n, kindOf(n), (DEADLINE_MARGIN_S / 2) * 1000), () => undefined);
    const bulk = await submitConcurrently(
      jobs,
      SUBMITTERS,
      (n) => submit(api, 'bulk', n, kindOf(n), DEADLINE_MS),
      (submitted) => {
        if (submitted % 1_000 === 0) console.log(`  submitted ${submitted} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      },
    );
    const submitSeconds = (Date.now() - started) / 1000;
    const live = await liveSide;
    console.log(`submitted ${jobs} bulk jobs in ${submitSeconds.toFixed(0)} s (${(jobs / submitSeconds).toFixed(0)}/s)`);

    // Waiting on each job's close, not counting running workflows: with thousands of jobs a visibility count on the
    // dev server's SQLite took seconds, and listings timed out beside it.
    const limit = started + limitMinutes * 60_000;
    const settledLog = (settled: number) => {
      if (settled % 1_000 === 0) console.log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${settled} of ${jobs} bulk jobs settled`);
    };
    const bulkSettled = await before(limit, `${jobs} bulk jobs settled in ${limitMinutes} min`, readBack(client, bulk, settledLog));
    const settledSeconds = (Date.now() - started) / 1000;
    const liveSettled = await before(limit, 'the live jobs', readBack(client, live));
    const success = (job: Settled) => job.state.status === (job.kind === 'invoice' ? 'posted' : 'completed');
    const billing = (await (await fetch(`${bench.stack.urls.simulator}/_sim/batch-billing`)).json()) as BatchBilling;
    const batchCalls = bulkSettled.reduce((sum, job) => sum + (job.state.usage.byLane?.batch?.calls ?? 0), 0);
    const batches: MessageBatchSummary[] = [];
    for await (const run of client.workflow.list({ query: `WorkflowType = "messageBatchWorkflow" AND ExecutionStatus = "Completed" AND StartTime >= "${since.toISOString()}"` })) {
      batches.push((await client.workflow.getHandle(run.workflowId, run.runId).result()) as MessageBatchSummary);
    }
    const answerLags = batches
      .filter((batch) => batch.endedAt && batch.answeredAt)
      .map((batch) => Date.parse(batch.answeredAt as string) - Date.parse(batch.endedAt as string));
    const sizeOf = (kind: Settled['kind']) => Math.max(0, ...bulkSettled.filter((job) => job.kind === kind).map((job) => job.historyLength));
    const report = {
      benchmark: 'backfill',
      at: new Date().toISOString(),
      settings: { temporal: server, bulkWorkers, ...workerTuning(), jobs, invoiceEvery, liveJobs, collectSeconds, batchSeconds, maxRequests, deadlineMarginSeconds: DEADLINE_MARGIN_S },
      jobs,
      settled: bulkSettled.filter(success).length,
      notSucceeded: bulkSettled.filter((job) => !success(job)).map((job) => job.state.status).slice(0, 20),
      billedOnce: billing.billedOnce,
      billing: { ...billing, batchCallsRecordedByJobs: batchCalls },
      costRatio: costPerJob(bulkSettled) / costPerJob(liveSettled),
      costPerJobUsd: { batchLane: costPerJob(bulkSettled), live: costPerJob(liveSettled) },
      withinDeadlineShare: bulkSettled.filter((job) => job.withinDeadline && success(job)).length / jobs,
      submitSeconds,
      settledSeconds,
      batches: batches.map(({ batchId, entries, ending, endedAt, answeredAt }) => ({ batchId, entries, ending, endedAt, answeredAt })),
      batchEndToLastAnswerMs: { p50: percentile(answerLags, 50), p95: percentile(answerLags, 95), max: Math.max(0, ...answerLags) },
      workflows: {
        batchCollectorWorkflow: await workflowSizes(client, 'batchCollectorWorkflow', since),
        messageBatchWorkflow: await workflowSizes(client, 'messageBatchWorkflow', since),
        orderScoreWorkflow: { maxHistoryEvents: sizeOf('order.score'), maxContinueAsNewBytes: 0 },
        invoiceWorkflow: { maxHistoryEvents: sizeOf('invoice'), maxContinueAsNewBytes: 0 },
      },
      // The bulk workers run the collector, the batch workflows and every job's workflow; a peak includes bundling.
      collectorWorkerRssMiB: await largestRss(bulkWorkerNames.map((name) => bench.stack.processes.get(name)?.child.pid)),
    };
    console.log(JSON.stringify({ ...report, batches: `${batches.length} batches` }, null, 2));
    const dir = join(__dirname, '..', 'results');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'backfill.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await connection.close();
    await bench.stop();
  }
}
