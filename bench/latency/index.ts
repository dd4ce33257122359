import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { readBenchFlags } from '../bench-flags';
import { connectBenchClient, startBenchStack, ZERO_LATENCY_MODEL } from '../bench-stack';
import { createActivities } from '../../activities';
import type { invoiceWorkflow } from '../../workflows';
import { createObjectStore, objectKeys } from '../../lib/object-store';
import { loadConfig } from '../../lib/config';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import { createLogger } from '../../lib/logger';
import { gatewayFromConfig } from '../../gateway/gateway-from-config';
import { createActivityDeps } from '../../workers/activity-deps';
import { percentile } from '../quota/measure';

/** Credentials of this run's private stack, generated here (the product has no demo keys). */
const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

const USAGE = 'usage: npm run bench -- latency [--jobs 30] [--burst 60] [--concurrency 4]';

/**
 * `npm run bench -- latency [--jobs N] [--burst N] [--concurrency C]`: how long Slowlane itself makes a job take
 * around the slow step. The simulated model answers at once, so every millisecond measured is ours. Side by side in one run:
 *  - slowlane: POST /jobs answers 202 (the client's wait), then the workflow runs the steps on a worker;
 *  - naive: the same four activities called one after another inside the request, no Temporal.
 * First one job at a time, then a burst with a few clients each waiting for its job's result: that figure is
 * jobs/s bounded by end-to-end latency (few clients, each waiting), not the stack's capacity; the `throughput`
 * benchmark floods the stack and measures that. Ratios are the stable figures on this shared 2-core machine.
 */
export async function runLatencyBenchmark(argv: string[]): Promise<void> {
  const flags = readBenchFlags(argv, ['jobs', 'burst', 'concurrency'], USAGE);
  const jobs = flags.count('jobs', 30, 1);
  const burst = flags.count('burst', 60, 1);
  const concurrency = flags.count('concurrency', 4, 1);
  console.log(`latency: ${jobs} jobs one at a time, then a burst of ${burst} (${concurrency} at a time), model latency 0`);
  const { stack, stop } = await startBenchStack('latency', { secrets: SECRETS, simulatorEnv: ZERO_LATENCY_MODEL });
  const { client, connection } = await connectBenchClient(stack);
  try {
    const run = randomUUID().slice(0, 8);
    // Warm both paths (connections, caches, JIT) so the first job does not stand for the rest.
    await measureSlowlane(stack.urls.api, client, 2, 1, `${run}-warm`);
    await measureNaive(stack.productEnv, 2, 1, `${run}-warm`);

    const sequential = await measureSlowlane(stack.urls.api, client, jobs, 1, `${run}-seq`);
    const naiveSequential = await measureNaive(stack.productEnv, jobs, 1, `${run}-seq`);
    const burstRun = await measureSlowlane(stack.urls.api, client, burst, concurrency, `${run}-burst`);
    const naiveBurst = await measureNaive(stack.productEnv, burst, concurrency, `${run}-burst`);

    const figures = {
      slowlane: {
        clientWaitP50Ms: percentile(sequential.submitMs, 50),
        clientWaitP95Ms: percentile(sequential.submitMs, 95),
        endToEndP50Ms: percentile(sequential.endToEndMs, 50),
        endToEndP95Ms: percentile(sequential.endToEndMs, 95),
        burstJobsPerSecond: burst / (burstRun.elapsedMs / 1000),
        burstClientWaitP95Ms: percentile(burstRun.submitMs, 95),
        posted: sequential.posted + burstRun.posted,
      },
      naive: {
        clientWaitP50Ms: percentile(naiveSequential.requestMs, 50),
        clientWaitP95Ms: percentile(naiveSequential.requestMs, 95),
        endToEndP50Ms: percentile(naiveSequential.requestMs, 50),
        endToEndP95Ms: percentile(naiveSequential.requestMs, 95),
        burstJobsPerSecond: burst / (naiveBurst.elapsedMs / 1000),
        burstClientWaitP95Ms: percentile(naiveBurst.requestMs, 95),
        posted: naiveSequential.posted + naiveBurst.posted,
      },
    };
    const ratios = {
      orchestrationOverheadP50Ms: figures.slowlane.endToEndP50Ms - figures.naive.endToEndP50Ms,
      endToEndP50: figures.slowlane.endToEndP50Ms / figures.naive.endToEndP50Ms,
      burstJobsPerSecond: figures.slowlane.burstJobsPerSecond / figures.naive.burstJobsPerSecond,
    };
    console.log(table(figures, ratios));
    const report = {
      benchmark: 'latency',
      command: `npm run bench -- latency --jobs ${jobs} --burst ${burst} --concurrency ${concurrency}`,
      finishedAt: new Date().toISOString(),
      settings: { jobs, burst, concurrency, modelLatencyMs: 0, document: 'one-page text invoice' },
      ...figures,
      ratios,
    };
    await mkdir(join(__dirname, '..', 'results'), { recursive: true });
    await writeFile(join(__dirname, '..', 'results', 'latency.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await connection.close();
    await stop();
  }
}

function benchInvoice(marker: string): string {
  return [
    'INVOICE',
    'Seller: Overhead Measurement Ltd',
    `Invoice number: OV-${marker}`,
    'Invoice date: 2026-11-20',
    'Total due: 119.00 EUR',
    'Subtotal: 100.00 EUR',
    'VAT 19%: 19.00 EUR',
  ].join('\n');
}

async function inBatches<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

/** Submits over HTTP and waits for each job's result with a long poll (no polling lag in the figures). */
async function measureSlowlane(apiUrl: string, client: Client, jobs: number, concurrency: number, run: string) {
  const submitMs: number[] = [];
  const endToEndMs: number[] = [];
  let posted = 0;
  const started = performance.now();
  await inBatches(jobs, concurrency, async (index) => {
    const form = new FormData();
    form.set('type', 'invoice');
    form.set('file', new Blob([benchInvoice(`${run}-${index}`)]), 'invoice.txt');
    const submittedAt = performance.now();
    const response = await fetch(`${apiUrl}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'idempotency-key': `latency-${run}-${index}` },
      body: form,
    });
    const body = (await response.json()) as { jobId: string };
    submitMs.push(performance.now() - submittedAt);
    if (response.status !== 202) throw new Error(`submit answered ${response.status}`);
    const state = await client.workflow.getHandle<typeof invoiceWorkflow>(body.jobId).result();
    endToEndMs.push(performance.now() - submittedAt);
    if (state.status === 'posted') posted++;
  });
  return { submitMs, endToEndMs, posted, elapsedMs: performance.now() - started };
}

/** The same activities, called one after another inside the "request", outside any worker. */
async function measureNaive(productEnv: Record<string, string>, jobs: number, concurrency: number, run: string) {
  const config = loadConfig(productEnv);
  const log = createLogger('bench', 'warn');
  const wired = gatewayFromConfig(config, log);
  const activities = createActivities(createActivityDeps(config, wired));
  const store = createObjectStore(config);
  const requestMs: number[] = [];
  let posted = 0;
  const started = performance.now();
  await inBatches(jobs, concurrency, async (index) => {
    const env = new MockActivityEnvironment();
    const call = <A, R>(activity: (input: A) => Promise<R>, input: A): Promise<R> => env.run(activity, input) as Promise<R>;
    const text = Buffer.from(benchInvoice(`${run}-n${index}`));
    const jobId = `invoice:demo:naive-${run}-${index}`;
    const requestStarted = performance.now();
    const sha256 = createHash('sha256').update(text).digest('hex');
    const key = objectKeys.input('demo', sha256);
    await store.put(key, text, { contentType: 'text/plain' });
    const job = { jobId, tenantId: 'demo', priority: 'interactive' as const };
    const document = { bucket: store.bucket, key, sha256, contentType: 'text/plain' as const, sizeBytes: text.length, fileName: 'invoice.txt' };
    const extracted = await call(activities.extractText, { ...job, document });
    await call(activities.classifyDocument, { ...job, textKey: extracted.textKey });
    const fields = await call(activities.extractInvoiceFields, { ...job, textKey: extracted.textKey });
    if (fields.outcome === 'valid' && fields.invoice) {
      await call(activities.postInvoiceToLedger, { ...job, invoice: fields.invoice });
      posted++;
    }
    requestMs.push(performance.now() - requestStarted);
  });
  const elapsedMs = performance.now() - started;
  await wired.close();
  return { requestMs, posted, elapsedMs };
}

function table(figures: Record<'slowlane' | 'naive', Record<string, number>>, ratios: Record<string, number>): string {
  const format = (value: number | undefined) => (value === undefined ? '' : value < 20 ? value.toFixed(1) : value.toFixed(0));
  const lines = [`${'figure'.padEnd(24)}${'slowlane'.padStart(12)}${'naive'.padStart(12)}`];
  for (const row of Object.keys(figures.slowlane)) {
    lines.push(`${row.padEnd(24)}${format(figures.slowlane[row]).padStart(12)}${format(figures.naive[row]).padStart(12)}`);
  }
  lines.push(`durable orchestration adds ${ratios.orchestrationOverheadP50Ms?.toFixed(0)} ms per job (p50, model latency 0)`);
  lines.push(`burst of waiting clients: Slowlane ${ratios.burstJobsPerSecond?.toFixed(2)}× the in-request way's jobs/s (latency-bound, not capacity)`);
  return lines.join('\n');
}
