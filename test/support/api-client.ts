import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { JobView } from '../../api/job-view';
import { TEST_TENANTS } from '../../stack/test-tenants';
import { testEnv } from './test-env';

export const demo = TEST_TENANTS[0] as (typeof TEST_TENANTS)[number];
export const acme = TEST_TENANTS[1] as (typeof TEST_TENANTS)[number];

export function apiUrl(): string {
  const url = testEnv().apiUrl;
  assert.ok(url, 'integration tests need the stack that `npm test` starts (SLOWLANE_TEST_API_URL)');
  return url;
}

export interface SubmitOptions {
  key?: string | null;
  apiKey?: string;
  type?: string;
  fileName?: string;
  fields?: Record<string, string>;
}

/** A JSON answer of the API: a job, a submission, or { error: { code, message, details } }. */
export interface ApiAnswer<T = Partial<JobView>> {
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
  const response = await fetch(`${apiUrl()}/jobs`, { method: 'POST', headers, body: form });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'], headers: response.headers };
}

export async function getJob(jobId: string, apiKey = demo.apiKey): Promise<ApiAnswer> {
  const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'], headers: response.headers };
}

/** Polls GET /jobs/:id until the job reaches one of `statuses` (or fails the test with the last view). */
export async function waitForJob(jobId: string, statuses: string[], timeoutMs = 60_000): Promise<ApiAnswer['body']> {
  const deadline = Date.now() + timeoutMs;
  let last: ApiAnswer['body'] | undefined;
  while (Date.now() < deadline) {
    last = (await getJob(jobId)).body;
    if (last.status && statuses.includes(last.status)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`job ${jobId} did not reach ${statuses.join('/')} in time; last seen ${JSON.stringify(last)}`);
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
