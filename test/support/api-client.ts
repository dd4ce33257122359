import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Job } from '../../common/api-contract/job';
import { type InvoiceResult, isInvoiceResult } from '../../common/job-types/invoice/result';
import { conformanceProblems, isCheckedBody } from './openapi-conformance';
import { testTenant } from './test-credentials';
import { testEnv } from './test-env';

export const demo = testTenant('demo');
export const acme = testTenant('acme');

export function apiUrl(): string {
  const url = testEnv().apiUrl;
  assert.ok(url, 'integration tests need the stack that `npm test` starts (SLOWLANE_TEST_API_URL)');
  return url;
}

/**
 * Every answer the API gives a test that imports this module is held to the OpenAPI document (errors included):
 * fetch is wrapped once, and an answer that does not conform fails the request, and so the test, with the reasons.
 */
function holdApiAnswersToTheContract(): void {
  const marker = Symbol.for('slowlane.openapi-conformance');
  const globals = globalThis as typeof globalThis & { [marker]?: true };
  const origin = testEnv().apiUrl ? new URL(testEnv().apiUrl as string).origin : undefined;
  if (globals[marker] || !origin) return;
  globals[marker] = true;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : String(input));
    if (url.origin !== origin) return response;
    const contentType = response.headers.get('content-type');
    const problems = conformanceProblems({
      method: (init?.method ?? request?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      status: response.status,
      contentType,
      ...(isCheckedBody(contentType) || response.status === 204 || response.status === 304 ? { body: await response.clone().text() } : {}),
    });
    assert.deepEqual(problems, [], 'the API answered outside its OpenAPI document (api/openapi)');
    return response;
  };
}
holdApiAnswersToTheContract();

export interface SubmitOptions {
  key?: string | null;
  apiKey?: string;
  type?: string;
  fileName?: string;
  fields?: Record<string, string>;
  /** Another API process (e.g. one started by startExtraApi); the stack's API by default. */
  baseUrl?: string;
}

/** A JSON answer of the API: a job, a submission, or { error: { code, message, details } }. */
export interface ApiAnswer<T = Partial<Job>> {
  status: number;
  body: T & { error?: { code: string; message: string; details?: Record<string, unknown> } };
  headers: Headers;
}

export async function submit(bytes: Uint8Array, options: SubmitOptions = {}): Promise<ApiAnswer> {
  const form = new FormData();
  if (options.type !== undefined || !options.fields) form.set('type', options.type ?? 'invoice');
  for (const [name, value] of Object.entries(options.fields ?? {})) form.set(name, value);
  form.set('file', new Blob([bytes]), options.fileName ?? 'invoice.pdf');
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey ?? demo.apiKey}` };
  if (options.key !== null) headers['idempotency-key'] = options.key ?? `test-${randomUUID()}`;
  const response = await fetch(`${options.baseUrl ?? apiUrl()}/jobs`, { method: 'POST', headers, body: form });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'], headers: response.headers };
}

/** An invoice job's result (fields and ledger entry), or undefined for any other result. */
export function invoiceResult(job: Partial<Job>): InvoiceResult | undefined {
  return isInvoiceResult(job.result) ? job.result : undefined;
}

/** POST /jobs with a JSON body: a type that takes JSON input (e.g. `order.score`). */
export async function submitJson(
  body: Record<string, unknown>,
  options: { key?: string | null; apiKey?: string } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey ?? demo.apiKey}`, 'content-type': 'application/json' };
  if (options.key !== null) headers['idempotency-key'] = options.key ?? `test-${randomUUID()}`;
  const response = await fetch(`${apiUrl()}/jobs`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'], headers: response.headers };
}

/** POST /jobs/:id/cancel. */
export async function cancelJob(jobId: string, apiKey = demo.apiKey): Promise<ApiAnswer> {
  const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'], headers: response.headers };
}

export async function getJob(jobId: string, apiKey = demo.apiKey): Promise<ApiAnswer> {
  const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'], headers: response.headers };
}

/** Polls GET /jobs/:id until the job reaches one of `statuses` (or fails the test with the last view). */
export async function waitForJob(jobId: string, statuses: string[], timeoutMs = 60_000, apiKey = demo.apiKey): Promise<ApiAnswer['body']> {
  const deadline = Date.now() + timeoutMs;
  let last: ApiAnswer['body'] | undefined;
  while (Date.now() < deadline) {
    last = (await getJob(jobId, apiKey)).body;
    if (last.status && statuses.includes(last.status)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`job ${jobId} did not reach ${statuses.join('/')} in time; last seen ${JSON.stringify(last)}`);
}

/** Waits until the job settles or waits for a person, and fails the test unless it waits for a person. */
export async function waitForReview(jobId: string, timeoutMs = 60_000): Promise<ApiAnswer['body']> {
  const waiting = await waitForJob(jobId, ['awaiting_review', 'completed', 'failed', 'dead_letter'], timeoutMs);
  assert.equal(waiting.status, 'awaiting_review', JSON.stringify(waiting));
  return waiting;
}

/** A test's clean-up: a job it left waiting for a person is rejected, so the stack's review queue holds none of it. */
export async function rejectIfInReview(jobId: string | undefined, reason: string): Promise<void> {
  if (jobId && (await getJob(jobId)).body.status === 'awaiting_review') await review(jobId, { decision: 'reject', reason });
}

export async function review(jobId: string, body: unknown, token = demo.reviewerToken): Promise<Omit<ApiAnswer, 'headers'>> {
  const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/review`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'] };
}

export interface LedgerEntry {
  id: string;
  jobId: string;
  tenantId: string;
  invoice: Record<string, unknown>;
}

export async function ledgerEntries(jobId: string): Promise<LedgerEntry[]> {
  const ledgerUrl = testEnv().ledgerUrl;
  assert.ok(ledgerUrl, 'needs the test stack ledger');
  const response = await fetch(`${ledgerUrl}/entries?jobId=${encodeURIComponent(jobId)}`);
  return ((await response.json()) as { entries: LedgerEntry[] }).entries;
}

/** Opens the job's SSE stream; `lastEventId` resumes after that event. */
export async function openEvents(jobId: string, options: { lastEventId?: string; apiKey?: string; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/events`, {
    headers: {
      authorization: `Bearer ${options.apiKey ?? demo.apiKey}`,
      accept: 'text/event-stream',
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
