import { randomInt, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobState } from '../../common/job';
import type { OrderScoreInput } from '../../common/job-types/order-score/order-score';
import { renderLongDocument } from '../../local/samples/long-document';
import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';
import { DEMO_TICKETS_DAY, ticketsJsonl, ticketsOfDay } from '../../local/samples/tickets-day';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import { readBenchFlags } from '../bench-flags';
import { connectBenchClient, startBenchStack } from '../bench-stack';
import { percentile } from '../quota/measure';

const USAGE =
  'usage: npm run bench -- batch [--job-type order.score|invoice|document|tickets.digest] [--jobs 30] [--deadline-seconds 300] [--batch-seconds 10] [--error-percent 0] [--expired-percent 0]';
const JOB_TYPES = ['order.score', 'invoice', 'document', 'tickets.digest'] as const;
type BenchJobType = (typeof JOB_TYPES)[number];
/** How a job of each type ends when all went well (no person in the loop). */
const SUCCESS: Record<BenchJobType, string> = {
  'order.score': 'completed',
  invoice: 'posted',
  document: 'completed',
  'tickets.digest': 'completed',
};
/** Pages of the generated report a document job reads: a few chunks, each a lane entry, and the reduce. */
const DOCUMENT_PAGES = 6;
/** Tickets in a digest job's day: a few batches of summaries, each a lane entry, and the narrative. */
const DIGEST_TICKETS = 450;
/** The margin the run's jobs get (BATCH_DEADLINE_MARGIN): a live-side job's deadline is set inside it. */
const DEADLINE_MARGIN_S = 60;
/** Whatever happens, the run ends: a job not settled by then counts as missing its deadline. */
const SETTLE_LIMIT_MS = 10 * 60_000;

const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

/** Orders the simulator approves at once (no person in the loop), each unique so no two share a cached document. */
function benchOrder(n: number): OrderScoreInput {
  return {
    order: { id: `bench-batch-${n}-${randomUUID()}`, totalAmount: 40 + (n % 17) * 25, currency: 'EUR', itemCount: 1 + (n % 4) },
    customer: { id: `cus-${n}`, accountAgeDays: 400 + n, previousOrders: 10 + (n % 9), previousChargebacks: 0 },
    payment: { method: 'card', billingCountry: 'DE', cardCountry: 'DE', cvvMatch: true, avsMatch: true },
    shipping: { country: 'DE', expedited: false },
  };
}

/** A clean invoice the simulator posts, made unique per job (its own reference line) so no two share a cached prefix. */
function benchInvoice(n: number): Blob {
  const sample = SAMPLE_CATALOG.find((candidate) => candidate.format === 'txt' && candidate.expectedOutcome === 'posted');
  if (sample?.format !== 'txt') throw new Error('the sample catalogue has no clean text invoice');
  return new Blob([`${sample.text}\nReference: bench-batch-${n}-${randomUUID()}\n`], { type: 'text/plain' });
}

/** A day of tickets of its own per job (a random seed), so no two jobs share a cached prompt. */
function benchTickets(): Blob {
  const tickets = ticketsOfDay({ day: DEMO_TICKETS_DAY.day, count: DIGEST_TICKETS, seed: randomInt(2 ** 31) });
  return new Blob([ticketsJsonl(tickets)], { type: 'text/plain' });
}

/** The body of POST /jobs for job `n` of the type: JSON for order.score, a multipart upload for the file types. */
function submission(type: BenchJobType, n: number, deadline: string, documentPdf: Buffer): { body: string | FormData; contentType?: string } {
  if (type === 'order.score') {
    return { body: JSON.stringify({ type, priority: 'bulk', input: benchOrder(n), deadline }), contentType: 'application/json' };
  }
  const form = new FormData();
  form.set('type', type);
  form.set('priority', 'bulk');
  form.set('deadline', deadline);
  if (type === 'invoice') form.set('file', benchInvoice(n), `invoice-${n}.txt`);
  else if (type === 'tickets.digest') form.set('file', benchTickets(), `tickets-${n}.jsonl`);
  else form.set('file', new Blob([new Uint8Array(documentPdf)], { type: 'application/pdf' }), `report-${n}.pdf`);
  return { body: form };
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

function figuresOf(finished: Finished[], jobs: number, success: string): SideFigures {
  const completed = finished.filter((job) => job.state.status === success);
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
    withinDeadlineShare: finished.filter((job) => job.withinDeadline && job.state.status === success).length / jobs,
    timeToFinishMs: { p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(0, ...times) },
  };
}

/**
 * `npm run bench -- batch`: what the batch lane saves on bulk jobs and whether they still meet their deadline.
 * One private stack; `--jobs` bulk jobs of `--job-type` (order.score by default; invoice, document and
 * tickets.digest upload a file, multipart, and take the lane for each of their model steps) through POST /jobs twice, side by side in the same run:
 * with a deadline `--deadline-seconds` away (they take the Message Batches lane) and with one inside the deadline
 * margin (they take the live path at once, as any job whose deadline is at risk). The simulator ends each batch
 * after `--batch-seconds` and can err or expire entries (`--error-percent`, `--expired-percent`): those go live.
 * Writes bench/results/batch.json (order.score; another type writes batch-<type>.json beside it): costRatio (batch
 * ÷ live cost per job), withinDeadlineShare, time to finish.
 */
export async function runBatchBenchmark(argv: string[]): Promise<void> {
  const flags = readBenchFlags(
    argv,
    ['job-type', 'jobs', 'deadline-seconds', 'batch-seconds', 'error-percent', 'expired-percent'],
    USAGE,
  );
  const jobType = flags.choice('job-type', JOB_TYPES, 'order.score');
  const jobs = flags.count('jobs', 30);
  const deadlineSeconds = flags.count('deadline-seconds', 300);
  const batchSeconds = flags.count('batch-seconds', 10);
  const errorPercent = flags.count('error-percent', 0);
  const expiredPercent = flags.count('expired-percent', 0);
  if (errorPercent > 100 || expiredPercent > 100) flags.refuse('--error-percent and --expired-percent are 0 to 100');
  console.log(`batch: ${jobs} bulk ${jobType} jobs per side, batches end after ${batchSeconds} s, deadline ${deadlineSeconds} s`);
  const documentPdf = jobType === 'document' ? await renderLongDocument(DOCUMENT_PAGES) : Buffer.alloc(0);
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
          // Uploads are limited per tenant (API_MAX_UPLOADS_PER_TENANT): a 429 is waited out as its Retry-After says.
          const idempotencyKey = `${name}-${n}-${randomUUID()}`;
          let response: Response;
          for (;;) {
            const { body, contentType } = submission(jobType, n, new Date(deadline).toISOString(), documentPdf);
            response = await fetch(`${bench.stack.urls.api}/jobs`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${API_KEY}`,
                ...(contentType ? { 'content-type': contentType } : {}),
                'idempotency-key': idempotencyKey,
              },
              body,
            });
            if (response.status !== 429) break;
            await response.text();
            await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(response.headers.get('retry-after') ?? 1)));
          }
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
          if (state.status !== SUCCESS[jobType]) console.warn(`${jobId} ended ${state.status}`);
          const finishedAt = Date.now();
          return { state, finishMs: finishedAt - submittedAt, withinDeadline: finishedAt <= deadline };
        }),
      );
    }

    // Both sides at once, so they share the machine's load.
    const [batch, live] = await Promise.all([side('batch', deadlineSeconds * 1000), side('live', (DEADLINE_MARGIN_S / 2) * 1000)]);
    const slowlane = figuresOf(batch, jobs, SUCCESS[jobType]);
    const naive = figuresOf(live, jobs, SUCCESS[jobType]);
    const report = {
      benchmark: 'batch',
      at: new Date().toISOString(),
      settings: { jobType, jobs, deadlineSeconds, batchSeconds, errorPercent, expiredPercent, deadlineMarginSeconds: DEADLINE_MARGIN_S },
      costRatio: slowlane.costPerJobUsd / naive.costPerJobUsd,
      withinDeadlineShare: slowlane.withinDeadlineShare,
      timeToFinishMs: slowlane.timeToFinishMs,
      batchLane: slowlane,
      livePath: naive,
    };
    console.log(JSON.stringify(report, null, 2));
    const dir = join(__dirname, '..', 'results');
    await mkdir(dir, { recursive: true });
    const file = jobType === 'order.score' ? 'batch.json' : `batch-${jobType.replace('.', '-')}.json`;
    await writeFile(join(dir, file), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await connection.close();
    await bench.stop();
  }
}
