import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBenchFlags } from '../bench-flags';
import { startBenchStack } from '../bench-stack';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import { buildReviewerScript } from '../../reviewer/build';
import { generateSamples } from '../../local/samples/generate';
import { readSse } from '../../test/support/sse';

const RESULTS_DIR = join(__dirname, '..', 'results');
/** Credentials of this run's private stack, generated here (the product has no demo keys). */
const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;
const TERMINAL = new Set(['posted', 'rejected', 'review_expired', 'failed']);

type Way = 'sse' | 'webhook' | 'poll-retry-after' | 'poll-100ms';

interface Seen {
  /** ms from the job's final status (the workflow's own timestamp) to the client knowing it. */
  lagMs: number;
  requests: number;
}

const USAGE = 'usage: npm run bench -- clients [--jobs 10] [--model-latency 2000]';

/**
 * `npm run bench -- clients [--jobs 10] [--model-latency 2000]`: how soon a client learns that its job finished, and how many
 * requests that costs, four ways in one run: SSE, a webhook, polling that honours Retry-After, and naive polling
 * every 100 ms. Also the reviewer page's script: bundle time and size. Writes bench/results/clients.json.
 */
export async function runClientsBenchmark(argv: string[]): Promise<void> {
  const flags = readBenchFlags(argv, ['jobs', 'model-latency'], USAGE);
  const jobs = flags.count('jobs', 10, 1);
  // Each model call takes this long in the simulator, so a job runs for seconds, as real ones do.
  const modelLatencyMs = flags.count('model-latency', 2000, 1);
  const say = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const startedAt = new Date();

  const bundleStart = performance.now();
  const script = await buildReviewerScript();
  const bundleMs = performance.now() - bundleStart;

  const { stack, dataDir, stop } = await startBenchStack('clients', {
    secrets: SECRETS,
    simulatorEnv: { SIM_LATENCY_BASE_MS: String(modelLatencyMs) },
    report: say,
  });
  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const event = JSON.parse(body) as { data: { jobId: string; status: string } };
      if (TERMINAL.has(event.data.status)) arrivals.set(event.data.jobId, Date.now());
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  try {
    const samples = await generateSamples(join(dataDir, 'samples'));
    const sample = samples.find((s) => s.expectedOutcome === 'posted' && s.fileName.endsWith('.pdf'));
    if (!sample) throw new Error('no posted PDF sample');
    const bytes = await readFile(sample.path);
    const api = stack.urls.api;
    const auth = { authorization: `Bearer ${API_KEY}` };
    say('stack up');

    const results: Record<Way, Seen[]> = { sse: [], webhook: [], 'poll-retry-after': [], 'poll-100ms': [] };
    // One way at a time on its own jobs, so a greedy poller cannot slow the others down on this shared machine.
    for (const way of Object.keys(results) as Way[]) {
      say(`${way}: ${jobs} jobs`);
      await Promise.all(
        Array.from({ length: jobs }, async (_unused, index) => {
          await sleep(index * 300);
          const form = new FormData();
          form.set('type', 'invoice');
          if (way === 'webhook') form.set('callbackUrl', callbackUrl);
          form.set('file', new Blob([bytes]), sample.fileName);
          const submitted = await fetch(`${api}/jobs`, { method: 'POST', headers: { ...auth, 'idempotency-key': `bench-${randomUUID()}` }, body: form });
          const { jobId } = (await submitted.json()) as { jobId: string };
          results[way].push(await watch(api, jobId, way, arrivals));
        }),
      );
    }

    const figures = Object.fromEntries(
      (Object.keys(results) as Way[]).map((way) => {
        const lags = results[way].map((s) => s.lagMs).sort((a, b) => a - b);
        const requests = results[way].map((s) => s.requests);
        return [
          way,
          {
            medianLagMs: Math.round(lags[Math.floor(lags.length / 2)] ?? 0),
            maxLagMs: Math.round(lags.at(-1) ?? 0),
            requestsPerJob: Number((requests.reduce((a, b) => a + b, 0) / requests.length).toFixed(1)),
          },
        ];
      }),
    );
    const reviewer = { bundleMs: Math.round(bundleMs), bundleBytes: Buffer.byteLength(script.code) };
    console.log(`\nHow soon a client learns its job finished (${jobs} jobs per way, model calls ${modelLatencyMs} ms, so each job runs a few seconds)\n`);
    console.log('way                 median lag   max lag   requests/job');
    for (const [way, f] of Object.entries(figures)) {
      console.log(`${way.padEnd(20)}${`${f.medianLagMs} ms`.padStart(10)}${`${f.maxLagMs} ms`.padStart(10)}${String(f.requestsPerJob).padStart(15)}`);
    }
    console.log(`\nreviewer.js: bundled in ${reviewer.bundleMs} ms, ${(reviewer.bundleBytes / 1024).toFixed(0)} KiB (with inline source map)`);

    await mkdir(RESULTS_DIR, { recursive: true });
    const path = join(RESULTS_DIR, 'clients.json');
    const report = {
      benchmark: 'clients',
      command: `npm run bench -- clients ${argv.join(' ')}`.trim(),
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      settings: { jobs, modelLatencyMs, ssePollMs: 1000, retryAfterSeconds: 2, tightPollMs: 100 },
      ...figures,
      reviewer,
    };
    await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwrote ${path}`);
  } finally {
    receiver.close();
    await stop();
  }
}

/** Follows one job the given way until it is finished; the lag is measured from the workflow's own final event time. */
async function watch(api: string, jobId: string, way: Way, arrivals: Map<string, number>): Promise<Seen> {
  const auth = { authorization: `Bearer ${API_KEY}` };
  const url = `${api}/jobs/${encodeURIComponent(jobId)}`;
  let seenAt: number;
  let requests = 1;
  if (way === 'sse') {
    seenAt = await untilTerminalEvent(url, auth);
  } else if (way === 'webhook') {
    requests = 0;
    // A webhook that never comes (delivery retries back off for a day) must fail the run, not hang it.
    const deadline = Date.now() + 120_000;
    while (!arrivals.has(jobId)) {
      if (Date.now() > deadline) throw new Error(`${jobId}: no webhook within 120 s`);
      await sleep(20);
    }
    seenAt = arrivals.get(jobId) as number;
  } else {
    for (;; requests++) {
      const response = await fetch(url, { headers: auth });
      const job = (await response.json()) as { status: string };
      if (TERMINAL.has(job.status)) break;
      await sleep(way === 'poll-100ms' ? 100 : Number(response.headers.get('retry-after') ?? 2) * 1000);
    }
    seenAt = Date.now();
  }
  return { lagMs: seenAt - (await finalEventAt(url, auth)), requests };
}

async function untilTerminalEvent(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${url}/events`, { headers });
  if (!response.body) throw new Error('no SSE body');
  for await (const event of readSse(response.body)) {
    if (event.event === 'status' && TERMINAL.has((JSON.parse(event.data) as { status: string }).status)) return Date.now();
  }
  throw new Error(`${url}: the stream ended without a terminal status`);
}

/** When the workflow recorded the job's final status (its last event), read afterwards so no watcher pays for it. */
async function finalEventAt(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${url}/events`, { headers });
  let at = Number.NaN;
  if (!response.body) throw new Error('no SSE body');
  for await (const event of readSse(response.body)) {
    if (event.event === 'status') at = Date.parse((JSON.parse(event.data) as { at: string }).at);
  }
  return at;
}
