import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import { Registry } from 'prom-client';
import type { JobEvents, JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { createLogger } from '../../lib/logger';
import { createApiMetrics } from '../../lib/metrics-api';
import { memoryAuditTrail } from '../support/memory-audit';

const POLL_MS = 5;
const jobId = 'invoice:demo:sse-route';

/** A job that keeps processing: the stream would poll it for as long as the client stays. */
function processingJob() {
  let calls = 0;
  let gate: Promise<void> = Promise.resolve();
  const jobs = {
    async events(): Promise<JobEvents> {
      calls++;
      await gate;
      return { status: 'processing', step: 'extractText', events: [{ seq: 1, status: 'processing', step: 'extractText', at: new Date(0).toISOString() }] };
    },
  };
  return {
    jobs: jobs as unknown as JobsService,
    calls: () => calls,
    /** Holds the next answers back until the returned function is called. */
    hold: () => {
      let release = () => undefined as void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = Promise.resolve();
        release();
      };
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `count()` stays the same for 40 poll intervals (or gives up after 25 tries), and returns it. */
async function settled(count: () => number): Promise<number> {
  for (let tries = 0, seen = count(); tries < 25; tries++, seen = count()) {
    await pause(40 * POLL_MS);
    if (count() === seen) return seen;
  }
  return count();
}

describe('GET /jobs/:id/events: the stream stops polling when the client goes away', () => {
  const job = processingJob();
  const metrics = createApiMetrics(new Registry());
  let api: RunningApi;
  beforeAll(async () => {
    const config = localTestConfig({ SSE_POLL_INTERVAL: `${POLL_MS}ms` });
    api = await startApiServer(
      { config, jobs: job.jobs, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail(), metrics },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(() => api?.close());

  const open = (signal: AbortSignal) =>
    fetch(`${api.url}/jobs/${encodeURIComponent(jobId)}/events`, { headers: { authorization: `Bearer ${testTenant('demo').apiKey}` }, signal });

  test('when the client disconnects while the stream runs, then no further status is asked for, and the request is counted', async () => {
    const client = new AbortController();
    const response = await open(client.signal);
    assert.equal(response.status, 200);
    const reader = response.body?.getReader();
    assert.ok(reader);
    await reader.read();
    client.abort();
    const afterLeaving = await settled(job.calls);
    await pause(40 * POLL_MS);
    assert.equal(job.calls(), afterLeaving);
    const counted = (await metrics.requests.get()).values.find((value) => value.labels.route === '/jobs/:id/events');
    assert.equal(counted?.value, 1, 'the stream the client left is counted');
  });

  test('when the client disconnects before the first answer, then the stream never starts polling', async () => {
    const release = job.hold();
    const before = job.calls();
    const client = new AbortController();
    const opening = open(client.signal).catch(() => undefined);
    while (job.calls() === before) await pause(POLL_MS);
    client.abort();
    await opening;
    // Let the server see the closed connection before the first answer arrives.
    await pause(40 * POLL_MS);
    release();
    assert.equal(await settled(job.calls), before + 1, 'only the first status was asked for');
  });
});
