import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import type { JobEvents, JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import type { JobEvent, JobProgress } from '../../common/job';
import { createLogger } from '../../lib/logger';
import { schemaProblems } from '../support/openapi-conformance';
import { readSse, type SseEvent } from '../support/sse';
import { memoryAuditTrail } from '../support/memory-audit';

const jobId = 'document:demo:sse-progress';
const at = new Date(0).toISOString();
const usage = (calls: number) => ({ inputTokens: 100 * calls, outputTokens: 10 * calls, costUsd: calls / 1000, calls });
const progress = (seq: number, done: number): JobProgress => ({ seq, unit: 'chunks', pagesRead: 30, done, total: 10, failed: 0, usage: usage(2 * done) });
const status = (seq: number, status: JobEvent['status'], step?: JobEvent['step']): JobEvent => ({ seq, status, ...(step ? { step } : {}), at });

const EVENTS = [status(1, 'queued'), status(2, 'processing', 'readDocumentPages'), status(3, 'processing', 'processDocumentChunk')];

/**
 * What the workflow answers, poll after poll, as a document job advances: progress 5 is superseded by 6 before
 * the stream polls again, so it is never sent.
 */
const SCRIPT: JobEvents[] = [
  { status: 'processing', step: 'readDocumentPages', events: EVENTS.slice(0, 2) },
  { status: 'processing', step: 'processDocumentChunk', events: EVENTS, progress: progress(4, 0) },
  { status: 'processing', step: 'processDocumentChunk', events: EVENTS, progress: progress(6, 8) },
  { status: 'completed', events: [...EVENTS, status(8, 'completed')], progress: progress(7, 10) },
];

describe('GET /jobs/:id/events of a fan-out: progress events in the status events numbering', () => {
  let api: RunningApi;
  let script: JobEvents[] = SCRIPT;
  let polls = 0;
  beforeAll(async () => {
    const jobs = {
      async events(): Promise<JobEvents> {
        return script[Math.min(polls++, script.length - 1)] as JobEvents;
      },
    };
    api = await startApiServer(
      { config: localTestConfig({ SSE_POLL_INTERVAL: '5ms' }), jobs: jobs as unknown as JobsService, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail() },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(() => api?.close());

  const stream = async (from: JobEvents[], lastEventId?: string): Promise<SseEvent[]> => {
    script = from;
    polls = 0;
    const headers: Record<string, string> = { authorization: `Bearer ${testTenant('demo').apiKey}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) };
    const response = await fetch(`${api.url}/jobs/${encodeURIComponent(jobId)}/events`, { headers });
    assert.equal(response.status, 200);
    assert.ok(response.body);
    const events: SseEvent[] = [];
    for await (const event of readSse(response.body)) {
      assert.deepEqual(schemaProblems('JobStreamEvent', event), [], 'each event matches the documented stream event');
      if (event.event === 'progress') assert.deepEqual(schemaProblems('JobProgressEvent', JSON.parse(event.data)), []);
      events.push(event);
    }
    return events;
  };
  const summary = (events: SseEvent[]) =>
    events.map((event) => {
      const data = JSON.parse(event.data) as { status?: string; progress?: JobProgress };
      return `${event.id ?? '-'} ${event.event} ${event.event === 'progress' ? `${data.progress?.done}/${data.progress?.total}` : data.status}`;
    });

  test('when a client follows the job from the start, then each status and each progress seen comes once, in seq order, superseded progress skipped', async () => {
    const events = await stream(SCRIPT);
    assert.deepEqual(summary(events), [
      '1 status queued',
      '2 status processing',
      '3 status processing',
      '4 progress 0/10',
      '6 progress 8/10',
      '7 progress 10/10',
      '8 status completed',
      '- end completed',
    ]);
    const last = JSON.parse(events.at(-3)?.data ?? '{}') as { jobId: string; progress: JobProgress };
    assert.deepEqual(last, { jobId, progress: progress(7, 10) });
  });

  test('when a client resumes with the id of a progress event, then it gets only what came after', async () => {
    const events = await stream(SCRIPT, '6');
    assert.deepEqual(summary(events), ['7 progress 10/10', '8 status completed', '- end completed']);
  });

  test('when no worker answers, then the memo progress is sent without an id, so no status event is skipped once one answers', async () => {
    const noWorker: JobEvents = { status: 'processing', step: 'processDocumentChunk', progress: progress(6, 8) };
    const events = await stream([noWorker, noWorker, SCRIPT[3] as JobEvents]);
    assert.deepEqual(summary(events), [
      '- status processing',
      '- progress 8/10',
      '1 status queued',
      '2 status processing',
      '3 status processing',
      '7 progress 10/10',
      '8 status completed',
      '- end completed',
    ]);
  });
});
