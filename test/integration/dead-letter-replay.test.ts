import assert from '../support/assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Client } from '@temporalio/client';
import type { JobEvent } from '../../common/job';
import { abandonUpdate } from '../../common/messages';
import type { DeadLetterList } from '../../ops/dead-letters';
import type { ReplayOutcome } from '../../ops/replay';
import { getJob, ledgerEntries, openEvents, submit, waitForJob } from '../support/api-client';
import { schemaProblems } from '../support/openapi-conformance';
import { sampleWith } from '../support/samples';
import {
  admin,
  demoTenant,
  type MetricSample,
  scrape,
  simulatorCalls,
  submitJobThatParks,
  temporalClient,
  total,
} from '../support/operations';
import { readSse } from '../support/sse';
import { testEnv } from '../support/test-env';

const REPO_ROOT = join(__dirname, '..', '..');

/** How often each activity was scheduled in the job's current run, and whether each ran on its first attempt. */
async function activityRuns(client: Client, jobId: string): Promise<Record<string, number[]>> {
  const history = await client.workflow.getHandle(jobId).fetchHistory();
  const typeOf = new Map<string, string>();
  const runs: Record<string, number[]> = {};
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) typeOf.set(String(event.eventId), scheduled.activityType?.name ?? '');
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const type = typeOf.get(String(started.scheduledEventId)) ?? '?';
      (runs[type] ??= []).push(started.attempt ?? 0);
    }
  }
  return runs;
}

/** Every worker's /metrics, scraped now: activity attempts are counted by the workers, whichever run they belong to. */
async function scrapeWorkers(): Promise<MetricSample[]> {
  const workerUrls = Object.entries(testEnv().metricsUrls).filter(([name]) => name.startsWith('worker'));
  assert.ok(workerUrls.length >= 1, `the stack reports its workers' metrics endpoints: ${JSON.stringify(testEnv().metricsUrls)}`);
  return (await Promise.all(workerUrls.map(([, url]) => scrape(url)))).flat();
}

type StatusEvent = JobEvent & { jobId: string; id?: string };

/** Reads the job's SSE stream from its start until a status event with `status` arrives (or the stream ends). */
async function statusEventsUntil(jobId: string, status: string): Promise<StatusEvent[]> {
  const response = await openEvents(jobId, { signal: AbortSignal.timeout(90_000) });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.ok(response.body);
  const statuses: StatusEvent[] = [];
  for await (const event of readSse(response.body)) {
    if (event.event !== 'status') continue;
    const data = JSON.parse(event.data) as StatusEvent;
    assert.deepEqual(schemaProblems('JobEvent', data), [], 'each event matches JobEvent in the OpenAPI document');
    statuses.push({ ...data, ...(event.id !== undefined ? { id: event.id } : {}) });
    if (data.status === status) break;
  }
  return statuses;
}

/**
 * Runs the replay tool without blocking this process: a synchronous spawn stalls the event loop for as long as tsx
 * starts (seconds on a loaded machine), so the API closes the idle keep-alive socket unseen and the next fetch
 * fails with "other side closed".
 */
function runReplayCli(args: string[]): Promise<{ code: number | null; output: string }> {
  const { productEnv } = testEnv();
  assert.ok(productEnv, 'needs the stack that `npm test` starts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'ops', 'replay-command.ts'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...productEnv, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('dead letters and replay after a fix (real stack)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await temporalClient();
  });
  afterAll(async () => {
    await client?.connection.close();
  });

  test('when extractInvoiceFields fails for good, then the job is a dead letter with its error, listed for operators, and a replay posts it once', async () => {
    const { marker, removeFault, jobId } = await submitJobThatParks();
    let faultActive = true;
    try {
      // A client following the job's event stream from the start learns that it is parked, and why.
      const streamed = await statusEventsUntil(jobId, 'dead_letter');
      const parkedEvent = streamed.at(-1);
      assert.equal(parkedEvent?.status, 'dead_letter', `the stream carried a dead_letter event: ${JSON.stringify(streamed)}`);
      assert.equal(parkedEvent.jobId, jobId);
      assert.equal(parkedEvent.step, 'extractInvoiceFields');
      assert.equal(parkedEvent.error?.type, 'ModelRequestInvalidError');
      assert.equal(parkedEvent.error?.step, 'extractInvoiceFields');
      assert.equal(parkedEvent.id, String(parkedEvent.seq), 'a numbered event, so a client can resume after it');
      assert.deepEqual(
        streamed.filter((event) => event.status === 'processing').map((event) => event.step),
        ['extractText', 'classifyDocument', 'extractInvoiceFields'],
      );

      const parked = await waitForJob(jobId, ['dead_letter', 'posted', 'failed', 'awaiting_review']);
      assert.equal(parked.status, 'dead_letter', JSON.stringify(parked));
      assert.equal(parked.step, 'extractInvoiceFields');
      assert.equal(parked.error?.type, 'ModelRequestInvalidError');
      assert.equal(parked.error?.step, 'extractInvoiceFields');
      assert.equal(parked.error?.retryable, false);
      assert.equal(parked.error?.attempts, 1);
      assert.match(parked.error?.message ?? '', /400/);
      assert.ok(parked.deadLetter?.expiresAt, 'the client sees until when an operator may decide');

      const listed = await admin<DeadLetterList>('GET', '/admin/dead-letters?step=extractInvoiceFields&errorType=ModelRequestInvalidError');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const entry = listed.body.deadLetters.find((d) => d.jobId === jobId);
      assert.ok(entry, `${jobId} is listed`);
      assert.equal(entry.tenantId, demoTenant.id);
      assert.equal(entry.error?.type, 'ModelRequestInvalidError');
      assert.match(entry.error?.message ?? '', /400/);
      assert.match(listed.body.query, /JobStatus = 'dead_letter' AND JobStep IN \('extractInvoiceFields', 'extractFields'\) AND ErrorType IN \('ModelRequestInvalidError', 'ModelRequestInvalid'\)/);
      const older = await admin<DeadLetterList>('GET', '/admin/dead-letters?olderThan=1h');
      assert.ok(!older.body.deadLetters.some((d) => d.jobId === jobId), 'parked moments ago, so not older than an hour');
      const otherStep = await admin<DeadLetterList>('GET', '/admin/dead-letters?step=postInvoiceToLedger');
      assert.ok(!otherStep.body.deadLetters.some((d) => d.jobId === jobId));
      assert.equal((await admin('GET', '/admin/dead-letters', undefined, demoTenant.apiKey)).status, 401, 'a tenant key is not an admin key');

      const dryRun = await runReplayCli(['--dry-run', '--query', `TenantId = 'demo' AND JobStatus = 'dead_letter' AND JobStep = 'extractInvoiceFields'`]);
      assert.match(dryRun.output, new RegExp(`would_retry\\s+${jobId}`), dryRun.output);
      assert.equal((await getJob(jobId)).body.status, 'dead_letter', 'a dry run changes nothing');

      await removeFault();
      faultActive = false;
      const replayed = await admin<ReplayOutcome>('POST', `/admin/jobs/${encodeURIComponent(jobId)}/replay`, { reason: 'provider fixed' });
      assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
      assert.equal(replayed.body.action, 'retried');
      assert.equal(replayed.body.step, 'extractInvoiceFields');

      const done = await waitForJob(jobId, ['posted', 'failed', 'dead_letter', 'awaiting_review']);
      assert.equal(done.status, 'posted', JSON.stringify(done));
      assert.equal((await ledgerEntries(jobId)).length, 1, 'posted exactly once');
      const runs = await activityRuns(client, jobId);
      assert.deepEqual(runs.extractText, [1], 'extractText ran once, on its first attempt, and was not run again');
      assert.deepEqual(runs.classifyDocument, [1]);
      assert.equal((await simulatorCalls(marker, 'classify_document')).length, 1, 'the provider classified it once');
      const extractions = await simulatorCalls(marker, 'record_invoice');
      assert.deepEqual(extractions.map((call) => call.status), [400, 200], 'refused once, answered after the replay');

      const again = await admin<ReplayOutcome>('POST', `/admin/jobs/${encodeURIComponent(jobId)}/replay`);
      assert.equal(again.status, 409, 'a posted job is not replayed');
      assert.equal(again.body.error?.code, 'not_replayable');
    } finally {
      if (faultActive) await removeFault();
    }
  });

  test('when an abandoned job is replayed with the tool, then it is reset to its failed step, keeps its text and classification, and posts once', async () => {
    const metricsBefore = await scrapeWorkers();
    const { marker, removeFault, jobId } = await submitJobThatParks();
    let faultActive = true;
    try {
      await waitForJob(jobId, ['dead_letter']);
      await client.workflow.getHandle(jobId).executeUpdate(abandonUpdate, { args: [{ operator: 'test', reason: 'give up' }] });
      const failed = await waitForJob(jobId, ['failed']);
      assert.equal(failed.error?.type, 'ModelRequestInvalidError', 'the client sees the job failed, with the error');
      const failedRunId = (await client.workflow.getHandle(jobId).describe()).runId;

      await removeFault();
      faultActive = false;
      const replay = await runReplayCli([jobId, '--reason', 'provider fixed']);
      assert.equal(replay.code, 0, replay.output);
      assert.match(replay.output, new RegExp(`reset\\s+${jobId}\\s+extractInvoiceFields`), replay.output);
      assert.match(replay.output, /summary: 1 reset/);

      const done = await waitForJob(jobId, ['posted', 'failed', 'dead_letter', 'awaiting_review']);
      assert.equal(done.status, 'posted', JSON.stringify(done));
      assert.notEqual((await client.workflow.getHandle(jobId).describe()).runId, failedRunId, 'the reset started a new run');
      assert.equal((await ledgerEntries(jobId)).length, 1, 'posted exactly once');
      const runs = await activityRuns(client, jobId);
      assert.deepEqual(runs.extractText, [1], 'the new run carries the first extractText over from history; it did not run again');
      assert.deepEqual(runs.classifyDocument, [1]);
      // The new run's history holds the old run's events up to the reset point, so it cannot show on its own that
      // nothing ran twice. The workers count every attempt they run, across both runs (the suite runs one file at a time).
      const metricsAfter = await scrapeWorkers();
      const attempts = (activity: string, outcome?: string) =>
        total(metricsAfter, 'slowlane_activity_attempts_total', { activity, ...(outcome ? { outcome } : {}) }) -
        total(metricsBefore, 'slowlane_activity_attempts_total', { activity, ...(outcome ? { outcome } : {}) });
      assert.equal(attempts('extractText'), 1, 'the workers ran extractText exactly once in total, before and after the reset');
      assert.equal(attempts('extractText', 'completed'), 1);
      assert.equal(attempts('classifyDocument'), 1, 'and classified it once');
      assert.equal((await simulatorCalls(marker, 'classify_document')).length, 1, 'the provider classified it once in total');
      const extractions = await simulatorCalls(marker, 'record_invoice');
      assert.deepEqual(extractions.map((call) => call.status), [400, 200]);

      const again = await runReplayCli([jobId]);
      assert.equal(again.code, 1, 'a refused job makes the tool exit non-zero');
      assert.match(again.output, new RegExp(`refused\\s+${jobId}.*finished as posted`), again.output);
    } finally {
      if (faultActive) await removeFault();
    }
  });

  test('when a job is running and not parked, then replay refuses it and leaves it alone', async () => {
    const review = await sampleWith('awaiting_review');
    const submitted = await submit(review.bytes, { fileName: review.fileName });
    const jobId = submitted.body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    const refused = await admin<ReplayOutcome>('POST', `/admin/jobs/${encodeURIComponent(jobId)}/replay`);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error?.code, 'not_replayable');
    assert.match(refused.body.error?.message ?? '', /still running \(awaiting_review/);
    assert.equal((await getJob(jobId)).body.status, 'awaiting_review');
    const unknown = await admin<ReplayOutcome>('POST', '/admin/jobs/invoice:demo:no-such-job/replay');
    assert.equal(unknown.status, 404);
  });
});
