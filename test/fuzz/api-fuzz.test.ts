import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import fc from 'fast-check';
import { PLATFORM_TRAIL } from '../../common/api-contract/audit';
import { TEST_OPERATOR, TEST_SECRETS } from '../support/test-credentials';
import { type FuzzContext, type FuzzRequest, operationsOf, requestFor, type Schema } from '../support/fuzz-requests';
import { conformanceProblems } from '../support/openapi-conformance';
import { testEnv } from '../support/test-env';

/** Bounded: this many generated requests in all, spread evenly over the document's operations. */
const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
/** Fixed by default so a CI failure can be replayed; FUZZ_SEED explores other corners. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_203);
const CONCURRENCY = 4;
/** An answer this late is a hang, not slowness: a bug whatever the machine's load. Latencies go to the report. */
const HANG_MS = 10_000;

interface Outcome {
  request: FuzzRequest;
  status?: number;
  latencyMs: number;
  problems: string[];
}

async function send(base: string, request: FuzzRequest): Promise<Outcome> {
  const started = performance.now();
  const problems: string[] = [];
  try {
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body as NonNullable<RequestInit['body']> } : {}),
      signal: AbortSignal.timeout(HANG_MS),
    });
    const contentType = response.headers.get('content-type');
    // Streams and documents are not read to the end: their headers are the answer.
    const readable = !/event-stream|application\/pdf|octet-stream|javascript|wasm/.test(contentType ?? '');
    const text = readable ? await response.text() : (await response.body?.cancel(), undefined);
    const latencyMs = performance.now() - started;
    if (response.status >= 500) problems.push(`answered ${response.status}: ${text?.slice(0, 200) ?? ''}`);
    if (response.status >= 400) {
      const body = (() => {
        try {
          return JSON.parse(text ?? '') as { error?: { code?: unknown; message?: unknown } };
        } catch {
          return undefined;
        }
      })();
      if (typeof body?.error?.code !== 'string' || typeof body.error.message !== 'string') {
        problems.push(`${response.status} without the error shape { error: { code, message } }: ${text?.slice(0, 200) ?? ''}`);
      }
    }
    problems.push(
      ...conformanceProblems({
        method: request.method,
        // The path the server saw: fetch resolves dot segments (an id of `.` or `..`) before sending.
        path: new URL(`${base}${request.path}`).pathname,
        status: response.status,
        contentType,
        ...(text !== undefined ? { body: text } : {}),
      }),
    );
    return { request, status: response.status, latencyMs, problems };
  } catch (error) {
    return { request, latencyMs: performance.now() - started, problems: [`no answer: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

/** One real job per tenant, so ids that exist (and belong to someone else) are part of what gets fuzzed. */
async function seedJob(base: string, apiKey: string): Promise<string> {
  const form = new FormData();
  form.set('type', 'invoice');
  form.set('file', new Blob([`INVOICE fuzz seed ${randomUUID()}\nTotal: 10.00 EUR\n`]), 'seed.txt');
  const response = await fetch(`${base}/jobs`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
  assert.equal(response.status, 202);
  return ((await response.json()) as { jobId: string }).jobId;
}

/** A few real page tokens, read by walking the first pages of the tenant's list one job at a time. */
async function pageTokensOf(base: string, apiKey: string): Promise<string[]> {
  const tokens: string[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 3; page++) {
    const query = new URLSearchParams({ limit: '1', ...(pageToken ? { pageToken } : {}) });
    const response = await fetch(`${base}/jobs?${query}`, { headers: { authorization: `Bearer ${apiKey}` } });
    pageToken = ((await response.json()) as { nextPageToken?: string }).nextPageToken;
    if (!pageToken) break;
    tokens.push(pageToken);
  }
  return tokens;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe('the API under generated hostile requests (fast-check)', () => {
  test('when every documented route gets 10,000 malformed and hostile requests, then none is a 5xx or a hang, and every answer is documented', async () => {
    const { apiUrl, artifactsDir } = testEnv();
    assert.ok(apiUrl, 'the fuzz tier needs the stack that `npm test` starts');
    const document = (await (await fetch(`${apiUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, Schema>> };
    const resolve = (ref: string): Schema =>
      ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<Schema>((node, key) => node[key] as Schema, document as unknown as Schema);
    const context: FuzzContext = {
      apiKeys: TEST_SECRETS.tenants.map((tenant) => tenant.apiKey),
      reviewerTokens: TEST_SECRETS.tenants.flatMap((tenant) => tenant.reviewers.map((reviewer) => reviewer.token)),
      adminKey: TEST_OPERATOR.token,
      jobIds: await Promise.all(TEST_SECRETS.tenants.map((tenant) => seedJob(apiUrl, tenant.apiKey))),
      // The platform's audit trail (key rotations) is named where a tenant is: the operators' audit route reads it.
      tenantIds: [...TEST_SECRETS.tenants.map((tenant) => tenant.id), PLATFORM_TRAIL],
      idempotencyKeys: Array.from({ length: 20 }, (_, index) => `fuzz-${index}`),
      pageTokens: await pageTokensOf(apiUrl, TEST_SECRETS.tenants[0]?.apiKey as string),
    };
    const operations = operationsOf(document);
    assert.ok(operations.length >= 15, `the document lists the API's operations (${operations.length})`);
    // The routes that erase, audit and abandon are the ones an attacker aims at first: a document without them fuzzes too little.
    const fuzzed = new Set(operations.map((operation) => `${operation.method} ${operation.template}`));
    for (const route of ['DELETE /jobs/{id}', 'GET /audit', 'GET /admin/audit', 'POST /admin/jobs/{id}/abandon']) assert.ok(fuzzed.has(route), `${route} is fuzzed`);
    const perOperation = Math.ceil(TOTAL_REQUESTS / operations.length);
    const requests = operations.flatMap((operation, index) =>
      fc.sample(requestFor(operation, context, resolve), { numRuns: perOperation, seed: SEED + index }),
    );

    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) outcomes.push(await send(apiUrl, requests[next++] as FuzzRequest));
      }),
    );

    const latencies = outcomes.map((outcome) => outcome.latencyMs).sort((a, b) => a - b);
    const byStatus: Record<string, number> = {};
    for (const outcome of outcomes) byStatus[String(outcome.status ?? 'none')] = (byStatus[String(outcome.status ?? 'none')] ?? 0) + 1;
    const failed = outcomes.filter((outcome) => outcome.problems.length > 0);
    const report = {
      seed: SEED,
      requests: outcomes.length,
      operations: operations.length,
      byStatus,
      latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? 0 },
      slowerThan2s: latencies.filter((latency) => latency > 2_000).length,
      failures: failed.length,
    };
    await mkdir(artifactsDir, { recursive: true });
    await writeFile(join(artifactsDir, 'fuzz-report.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`fuzz: ${JSON.stringify(report)}`);
    // One line per distinct problem, with one request that shows it.
    const distinct = new Map<string, string>();
    for (const outcome of failed) {
      for (const problem of outcome.problems) {
        const kind = `${outcome.request.method} ${outcome.request.summary.split(' ')[1]} ${problem.slice(0, 120)}`;
        if (!distinct.has(kind)) distinct.set(kind, `${kind}\n    e.g. ${outcome.request.method} ${outcome.request.path.slice(0, 200)} (${outcome.request.summary})`);
      }
    }
    assert.equal(outcomes.length, requests.length);
    assert.deepEqual([...distinct.values()].slice(0, 25), [], `seed ${SEED}: ${failed.length} of ${outcomes.length} requests went wrong`);
  });
});
