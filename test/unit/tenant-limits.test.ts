import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import type { JobEvents, JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { tenantSlots } from '../../api/tenant-slots';
import { createLogger } from '../../lib/logger';
import { conformanceProblems } from '../support/openapi-conformance';
import { memoryAuditTrail } from '../support/memory-audit';

const DEMO = testTenant('demo');

describe('tenantSlots', () => {
  test('when a tenant holds every slot, then it gets none more until one is released, and other tenants are not affected', () => {
    const slots = tenantSlots(2);
    const first = slots.tryAcquire('demo');
    const second = slots.tryAcquire('demo');
    assert.ok(first && second);
    assert.equal(slots.tryAcquire('demo'), undefined);
    assert.ok(slots.tryAcquire('acme'), 'another tenant has its own slots');
    first();
    first(); // a second release must not free a slot that is still held
    const third = slots.tryAcquire('demo');
    assert.ok(third);
    assert.equal(slots.tryAcquire('demo'), undefined);
  });
});

describe('per-tenant limits on uploads in flight and open event streams', () => {
  let api: RunningApi;
  const jobs = {
    async events(): Promise<JobEvents> {
      return { status: 'processing', step: 'extractText', events: [] };
    },
  } as unknown as JobsService;
  beforeAll(async () => {
    const config = localTestConfig({ API_MAX_UPLOADS_PER_TENANT: '1', API_MAX_EVENT_STREAMS_PER_TENANT: '1', SSE_POLL_INTERVAL: '50ms' });
    api = await startApiServer({ config, jobs, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail() }, { host: '127.0.0.1', port: 0 });
  });
  afterAll(() => api?.close());

  const demo = { authorization: `Bearer ${DEMO.apiKey}` };

  async function expectTooMany(response: Response, path: string): Promise<void> {
    assert.equal(response.status, 429);
    assert.ok(Number(response.headers.get('retry-after')) >= 1, 'Retry-After says when to come back');
    const text = await response.text();
    assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'too_many_requests');
    assert.deepEqual(conformanceProblems({ method: response.url.endsWith('/jobs') ? 'POST' : 'GET', path, status: 429, contentType: response.headers.get('content-type'), body: text }), []);
  }

  test('when a tenant already has its event streams open, then the next is a documented 429 until one closes', async () => {
    const path = '/jobs/invoice%3Ademo%3Alimits/events';
    const open = new AbortController();
    const first = await fetch(`${api.url}${path}`, { headers: demo, signal: open.signal });
    assert.equal(first.status, 200);
    await expectTooMany(await fetch(`${api.url}${path}`, { headers: demo }), path);
    open.abort();
    let again: Response | undefined;
    for (let tries = 0; tries < 100 && again?.status !== 200; tries++) {
      await again?.body?.cancel();
      again = await fetch(`${api.url}${path}`, { headers: demo });
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(again?.status, 200, 'the slot came back when the first stream closed');
    await again?.body?.cancel();
  });

  test('when a tenant already has an upload in flight, then the next POST /jobs is a documented 429', async () => {
    // An upload whose body never ends holds its slot.
    let hold: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (hold = controller) });
    hold?.enqueue(new TextEncoder().encode('--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nINVOICE'));
    const slow = fetch(`${api.url}/jobs`, {
      method: 'POST',
      headers: { ...demo, 'content-type': 'multipart/form-data; boundary=x' },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    let second: Response | undefined;
    for (let tries = 0; tries < 100 && second?.status !== 429; tries++) {
      const form = new FormData();
      form.set('file', new Blob(['INVOICE']), 'b.txt');
      second = await fetch(`${api.url}/jobs`, { method: 'POST', headers: demo, body: form });
      if (second.status !== 429) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(second);
    await expectTooMany(second, '/jobs');
    hold?.error(new Error('test done'));
    await slow;
  });
});
