import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobState } from '../../common/job';
import type { OrderScoreInput } from '../../common/job-types/order-score/order-score';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import { connectBenchClient, startBenchStack } from '../bench-stack';
import { percentile } from '../quota/measure';
import { wholeNumberFlag } from '../whole-number-flag';

const USAGE =
  'usage: npm run bench -- batch [--jobs N] [--deadline-seconds S] [--batch-seconds S] [--error-percent P] [--expired-percent P]';
/** The margin the run's jobs get (BATCH_DEADLINE_MARGIN): a live-side job's deadline is set inside it. */
const DEADLINE_MARGIN_S = 60;
/** Whatever happens, the run ends: a job not settled by then counts as missing its deadline. */
const SETTLE_LIMIT_MS = 10 * 60_000;

const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

function flag(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
}

/** Orders the simulator approves at once (no person in the loop), each unique so no two share a cached document. */
function benchOrder(n: number): OrderScoreInput {
  return {
    order: { id: `bench-batch-${n}-${randomUUID()}`, totalAmount: 40 + (n % 17) * 25, currency: 'EUR', itemCount: 1 + (n % 4) },
    customer: { id: `cus-${n}`, accountAgeDays: 400 + n, previousOrders: 10 + (n % 9), previousChargebacks: 0 },
    payment: { method: 'card', billingCountry: 'DE', cardCountry: 'DE', cvvMatch: true, avsMatch: true },
    shipping: { country: 'DE', expedited: false },
  };
}

interface Finished {
  state: JobState;
  finishMs: number;
  withinDeadline: boolean;
}

interface SideFigures {
  jobs: number;
  completed: number;
  costPerJobUsd: number;
  callsByLane: { live: number; batch: number };
  withinDeadlineShare: number;
  timeToFinishMs: { p50: number; p95: number; max: number };
}

function figuresOf(finished: Finished[], jobs: number): SideFigures {
  const completed = finished.filter((job) => job.state.status === 'completed');
  const cost = finished.reduce((sum, job) => sum + job.state.usage.costUsd, 0);
  const times = finished.map((job) => job.finishMs);
  return {
    jobs,
    completed: completed.length,
    costPerJobUsd: cost / Math.max(1, finished.length),
    callsByLane: {
      live: finished.reduce((sum, job) => sum + (job.state.usage.byLane?.live?.calls ?? 0), 0),
      batch: finished.reduce((sum, job) => sum + (job.state.usage.byLane?.batch?.calls ?? 0), 0),
    },
    withinDeadlineShare: finished.filter((job) => job.withinDeadline && job.state.status === 'completed').length / jobs,
    timeToFinishMs: { p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(0, ...times) },
  };
}

/**
 * `npm run bench -- batch`: what the batch lane saves on bulk jobs and whether they still meet their deadline.
 * One private stack; `--jobs` bulk `order.score` jobs through POST /jobs twice, side by side in the same run:
 * with a deadline `--deadline-seconds` away (they take the Message Batches lane) and with one inside the deadline
 * margin (they take the live path at once, as any job whose deadline is at risk). The simulator ends each batch
 * after `--batch-seconds` and can err or expire entries (`--error-percent`, `--expired-percent`): those go live.
 * Writes bench/results/batch.json: costRatio (batch ÷ live cost per job), withinDeadlineShare, time to finish.
 */
export async function runBatchBenchmark(argv: string[]): Promise<void> {
  const jobs = wholeNumberFlag(flag(argv, 'jobs'), 30, 'jobs', USAGE);
  const deadlineSeconds = wholeNumberFlag(flag(argv, 'deadline-seconds'), 300, 'deadline-seconds', USAGE);
  const batchSeconds = wholeNumberFlag(flag(argv, 'batch-seconds'), 10, 'batch-seconds', USAGE);
  const errorPercent = wholeNumberFlag(flag(argv, 'error-percent'), 0, 'error-percent', USAGE);
  const expiredPercent = wholeNumberFlag(flag(argv, 'expired-percent'), 0, 'expired-percent', USAGE);
  console.log(`batch: ${jobs} bulk order.score jobs per side, batches end after ${batchSeconds} s, deadline ${deadlineSeconds} s`);
  const bench = await startBenchStack('batch', {
    secrets: SECRETS,
    productEnv: {
      BATCH_COLLECT_WINDOW: '2s',
      BATCH_POLL_INTERVAL: '1s',
      BATCH_DEADLINE_MARGIN: `${DEADLINE_MARGIN_S}s`,
    },
    simulatorEnv: {
      SIM_BATCH_PROCESSING_MS: String(batchSeconds * 1000),
      SIM_BATCH_ERROR_RATE: String(errorPercent / 100),
      SIM_BATCH_EXPIRED_RATE: String(expiredPercent / 100),
    },
  });
  const { client, connection } = await connectBenchClient(bench.stack);
  try {
    async function side(name: 'batch' | 'live', deadlineMs: number): Promise<Finished[]> {
      const started = await Promise.all(
        Array.from({ length: jobs }, async (_, n) => {
          const submittedAt = Date.now();
          const deadline = submittedAt + deadlineMs;
          const response = await fetch(`${bench.stack.urls.api}/jobs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `${name}-${n}-${randomUUID()}` },
            body: JSON.stringify({ type: 'order.score', priority: 'bulk', input: benchOrder(n), deadline: new Date(deadline).toISOString() }),
          });
          if (response.status !== 202) throw new Error(`POST /jobs answered ${response.status}: ${await response.text()}`);
          const { jobId } = (await response.json()) as { jobId: string };
          return { jobId, submittedAt, deadline };
        }),
      );
      const settleBy = Date.now() + SETTLE_LIMIT_MS;
      return Promise.all(
        started.map(async ({ jobId, submittedAt, deadline }) => {
          const result = client.workflow.getHandle(jobId).result() as Promise<JobState>;
          const limit = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), settleBy - Date.now()).unref());
          const state = await Promise.race([result, limit]);
          if (!state) throw new Error(`${jobId} did not settle within ${SETTLE_LIMIT_MS / 60_000} min`);
          if (state.status !== 'completed') console.warn(`${jobId} ended ${state.status}`);
          const finishedAt = Date.now();
          return { state, finishMs: finishedAt - submittedAt, withinDeadline: finishedAt <= deadline };
        }),
      );
    }

    // Both sides at once, so they share the machine's load.
    const [batch, live] = await Promise.all([side('batch', deadlineSeconds * 1000), side('live', (DEADLINE_MARGIN_S / 2) * 1000)]);
    const slowlane = figuresOf(batch, jobs);
    const naive = figuresOf(live, jobs);
    const report = {
      benchmark: 'batch',
      at: new Date().toISOString(),
      settings: { jobs, deadlineSeconds, batchSeconds, errorPercent, expiredPercent, deadlineMarginSeconds: DEADLINE_MARGIN_S },
      costRatio: slowlane.costPerJobUsd / naive.costPerJobUsd,
      withinDeadlineShare: slowlane.withinDeadlineShare,
      timeToFinishMs: slowlane.timeToFinishMs,
      batchLane: slowlane,
      livePath: naive,
    };
    console.log(JSON.stringify(report, null, 2));
    const dir = join(__dirname, '..', 'results');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'batch.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await connection.close();
    await bench.stop();
  }
}
