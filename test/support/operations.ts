import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { apiUrl, submit } from './api-client';
import { sampleWith } from './samples';
import { TEST_OPERATOR, testTenant } from './test-credentials';
import { testEnv } from './test-env';
import { testDataConverter } from './test-codec';

/** The test stack's operator's own token (an operator, not a shared admin key). */
export const ADMIN_KEY = TEST_OPERATOR.token;

export interface JsonAnswer<T> {
  status: number;
  body: T & { error?: { code: string; message: string; details?: Record<string, unknown> } };
}

export async function admin<T>(method: 'GET' | 'POST', path: string, body?: unknown, key = ADMIN_KEY): Promise<JsonAnswer<T>> {
  const response = await fetch(`${apiUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as JsonAnswer<T>['body'] };
}

function simulatorUrl(): string {
  const url = testEnv().simulatorUrl;
  assert.ok(url, 'needs the test stack simulator');
  return url;
}

/**
 * Makes model calls whose document contains the marker fail with `kind` (every time, or the first `times`);
 * returns a function that removes the rule.
 */
export async function injectFault(
  match: { tool?: string; textIncludes: string },
  kind: string,
  options: { times?: number; retryAfterSeconds?: number } = {},
): Promise<() => Promise<void>> {
  const fault = { kind, ...(options.retryAfterSeconds !== undefined ? { retryAfterSeconds: options.retryAfterSeconds } : {}) };
  const response = await fetch(`${simulatorUrl()}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match, fault, ...(options.times !== undefined ? { times: options.times } : {}) }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  const { id } = (await response.json()) as { id: string };
  return async () => {
    // A rule with `times` removes itself once used up: 404 then means it is already gone.
    const removed = await fetch(`${simulatorUrl()}/_sim/faults/${id}`, { method: 'DELETE' });
    assert.ok([200, 404].includes(removed.status), `removing fault ${id}: ${removed.status}`);
  };
}

export interface SimulatorCall {
  tool: string | null;
  status: number;
  fault: string | null;
}

/** The provider calls the simulator saw for documents containing `marker`. */
export async function simulatorCalls(marker: string, tool?: string): Promise<SimulatorCall[]> {
  const query = new URLSearchParams({ textIncludes: marker, ...(tool ? { tool } : {}) });
  const response = await fetch(`${simulatorUrl()}/_sim/calls?${query.toString()}`);
  return ((await response.json()) as { calls: SimulatorCall[] }).calls;
}

/** A clean plain-text sample invoice with a unique line in it, so faults and call counts can single it out. */
export async function markedInvoice(marker: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  const sample = await sampleWith('posted', false);
  const text = `${new TextDecoder().decode(sample.bytes).trimEnd()}\nReference: ${marker}\n`;
  return { bytes: new TextEncoder().encode(text), fileName: `${marker}.txt` };
}

/** A client of the test stack's Temporal server, for what only Temporal can tell (histories, abandon). */
export async function temporalClient(): Promise<Client> {
  const { temporalAddress, temporalNamespace } = testEnv();
  assert.ok(temporalAddress, 'needs the test stack Temporal server');
  return new Client({
    connection: await Connection.connect({ address: temporalAddress }),
    namespace: temporalNamespace,
    dataConverter: testDataConverter(),
  });
}

/** Prometheus text → samples; `name{a="b"} 3` becomes { name, labels: { a: 'b' }, value: 3 }. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePrometheus(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] as string] = (pair[2] as string).replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

export async function scrape(url: string): Promise<MetricSample[]> {
  const response = await fetch(url);
  assert.equal(response.status, 200, `${url} answered ${response.status}`);
  return parsePrometheus(await response.text());
}

/** Sum of the samples named `name` whose labels include `labels`, over every scraped process. */
export function total(samples: MetricSample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

export const demoTenant = testTenant('demo');

/**
 * Submits an invoice whose field extraction the simulator refuses for good (a 400 every time, ModelRequestInvalidError),
 * so it parks as a dead letter at extractInvoiceFields, for tests of what operators do with one. An unreadable upload
 * does not park: it fails for its client. Remove the fault once the job is parked, or when the test ends.
 */
export async function submitJobThatParks(): Promise<{ marker: string; jobId: string; removeFault: () => Promise<void> }> {
  const marker = `dlq-${randomUUID()}`;
  const removeFault = await injectFault({ tool: 'record_invoice', textIncludes: marker }, 'invalid_request');
  const document = await markedInvoice(marker);
  const submitted = await submit(document.bytes, { fileName: document.fileName });
  assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
  return { marker, removeFault, jobId: submitted.body.jobId as string };
}
