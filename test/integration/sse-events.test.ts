import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import {  } from '../support/test-credentials';
import { acme, demo, openEvents, review, submit, waitForJob } from '../support/api-client';
import { startExtraApi, startExtraWorker } from '../support/extra-api';
import { schemaProblems } from '../support/openapi-conformance';
import { sampleWith } from '../support/samples';
import { readSse, type SseEvent } from '../support/sse';

interface StatusEvent {
  jobId: string;
  seq: number;
  status: string;
  step?: string;
  at: string;
}

/** Reads the stream to its end (or `stopAfter` status events) and returns what came, checked against JobEvent. */
async function collect(response: Response, stopAfter = Number.POSITIVE_INFINITY): Promise<{ events: SseEvent[]; statuses: StatusEvent[]; ended: boolean }> {
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.ok(response.body);
  const events: SseEvent[] = [];
  const statuses: StatusEvent[] = [];
  for await (const event of readSse(response.body)) {
    events.push(event);
    // As an outside client (Schemathesis) checks it: the event against the stream's schema, its data against the body named.
    assert.deepEqual(schemaProblems('JobStreamEvent', event), [], 'each event matches the documented stream event');
    if (event.event === 'end') assert.deepEqual(schemaProblems('JobStreamEnd', JSON.parse(event.data)), [], 'the end event matches JobStreamEnd');
    if (event.event !== 'status') continue;
    const data = JSON.parse(event.data) as StatusEvent;
    assert.deepEqual(schemaProblems('JobEvent', data), [], 'each event matches JobEvent in the OpenAPI document');
    statuses.push(data);
    if (statuses.length >= stopAfter) return { events, statuses, ended: false };
  }
  return { events, statuses, ended: events.at(-1)?.event === 'end' };
}

describe('SSE: GET /jobs/:id/events', () => {
  test('when a job runs to posted, then every status change arrives once, in order, with its seq as id, and the stream ends', async () => {
    const sample = await sampleWith('posted');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const jobId = body.jobId as string;

    const { events, statuses, ended } = await collect(await openEvents(jobId));
    assert.ok(ended, `the stream ends with an "end" event: ${JSON.stringify(events.map((e) => e.event))}`);
    assert.deepEqual(statuses.map((s) => s.seq), statuses.map((_s, index) => index + 1), 'seq counts 1, 2, 3… with no gap or repeat');
    assert.deepEqual(events.filter((e) => e.event === 'status').map((e) => e.id), statuses.map((s) => String(s.seq)));
    assert.ok(statuses.every((s) => s.jobId === jobId));
    assert.deepEqual(
      statuses.filter((s) => s.status === 'processing').map((s) => s.step),
      ['extractText', 'classifyDocument', 'extractInvoiceFields', 'postInvoiceToLedger'],
    );
    assert.equal(statuses.at(-1)?.status, 'posted');
    assert.equal(JSON.parse(events.at(-1)?.data ?? '{}').status, 'posted');
  });

  test('when a client reconnects with Last-Event-ID, then it gets only the events after that id, and 204 once it has them all', async () => {
    const sample = await sampleWith('posted');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const jobId = body.jobId as string;

    // Read two events, drop the connection, come back with the last id seen: the union is the whole list, once.
    const first = await collect(await openEvents(jobId), 2);
    const lastSeen = String(first.statuses.at(-1)?.seq);
    const rest = await collect(await openEvents(jobId, { lastEventId: lastSeen }));
    assert.ok(rest.ended);
    const all = [...first.statuses, ...rest.statuses];
    assert.deepEqual(all.map((s) => s.seq), all.map((_s, index) => index + 1));
    assert.ok(rest.statuses.every((s) => s.seq > Number(lastSeen)));
    assert.equal(all.at(-1)?.status, 'posted');

    const whole = await collect(await openEvents(jobId));
    assert.deepEqual(whole.statuses, all, 'a fresh connection replays the same events');

    const done = await openEvents(jobId, { lastEventId: String(all.at(-1)?.seq) });
    assert.equal(done.status, 204, 'a client that has seen the end is told not to reconnect');
  });

  test('when a job waits for review, then the stream stays open and carries the decision through to posted', async () => {
    const sample = await sampleWith('awaiting_review');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const jobId = body.jobId as string;
    const response = await openEvents(jobId);
    const reading = collect(response);

    const waiting = await waitForJob(jobId, ['awaiting_review', 'posted', 'failed']);
    assert.equal(waiting.status, 'awaiting_review');
    const fields = {
      invoiceNumber: 'SSE-1',
      issuer: 'Streamed Supplier',
      issueDate: '2026-11-01',
      dueDate: null,
      currency: 'EUR',
      totalAmount: 10,
      subtotalAmount: null,
      taxAmount: null,
      lineItems: [],
    };
    assert.equal((await review(jobId, { decision: 'approve', fields })).status, 200);

    const { statuses, ended } = await reading;
    assert.ok(ended);
    const order = statuses.map((s) => s.status);
    assert.ok(order.indexOf('awaiting_review') !== -1 && order.indexOf('awaiting_review') < order.lastIndexOf('processing'), order.join(' → '));
    assert.equal(order.at(-1), 'posted');
  });

  test('when no worker answers, then the server-side status comes without an id, and the numbered events follow once a worker is back', async () => {
    // An API whose jobs go to task queues no worker polls yet: the job waits, queued, and the status query has no one to ask.
    const prefix = `sse-${Date.now().toString(36)}`;
    const api = await startExtraApi('api-no-worker', { TASK_QUEUE_PREFIX: prefix });
    try {
      const sample = await sampleWith('posted');
      const { body } = await submit(sample.bytes, { baseUrl: api.url, fileName: sample.fileName });
      const jobId = body.jobId as string;
      const response = await fetch(`${api.url}/jobs/${encodeURIComponent(jobId)}/events`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      assert.equal(response.status, 200);
      assert.ok(response.body);
      const events = readSse(response.body);
      const first = (await events.next()).value as SseEvent;
      assert.equal(first.id, undefined, 'no id: a resuming client keeps its place');
      assert.deepEqual(JSON.parse(first.data), { ...JSON.parse(first.data), jobId, status: 'queued', detailed: false });

      const worker = await startExtraWorker('worker-late', { TASK_QUEUE_PREFIX: prefix, WORKER_PRIORITIES: 'interactive' });
      try {
        const rest: SseEvent[] = [];
        for await (const event of events) rest.push(event);
        const numbered = rest.filter((event) => event.event === 'status' && event.id !== undefined);
        assert.deepEqual(numbered.map((event) => Number(event.id)), numbered.map((_e, index) => index + 1), 'the whole history, numbered from 1');
        assert.equal(JSON.parse(numbered.at(-1)?.data ?? '{}').status, 'posted');
        assert.equal(rest.at(-1)?.event, 'end');
      } finally {
        await worker.stop();
      }
    } finally {
      await api.stop();
    }
  });

  test("when another tenant or no key asks for a job's events, then 404 or 401 before any stream starts", async () => {
    const sample = await sampleWith('posted');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const jobId = body.jobId as string;
    const foreign = await openEvents(jobId, { apiKey: acme.apiKey });
    assert.equal(foreign.status, 404);
    assert.match(foreign.headers.get('content-type') ?? '', /application\/json/);
    const anonymous = await openEvents(jobId, { apiKey: 'nobody' });
    assert.equal(anonymous.status, 401);
    await waitForJob(jobId, ['posted']);
  });
});
