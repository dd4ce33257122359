import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { createRetentionActivities } from '../../activities/retention';
import { RETENTION_SCHEDULE_ID, type SweepTotals } from '../../common/retention';
import { type Config, loadConfig } from '../../lib/config';
import { createAuditTrail } from '../../lib/audit/audit-trail';
import { createLogger } from '../../lib/logger';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { createObjectStore, objectKeys, type ObjectStore } from '../../lib/object-store';
import type { SpeechTranscriptRemover } from '../../lib/speech/job-speech-records';
import { speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { type JobOfCallback, speechCallbackKeys, speechCallbackStore } from '../../lib/speech/speech-callback-store';
import { createAssemblyAiSpeechGateway } from '../../gateway/speech/assemblyai-speech-gateway';
import { bundleWorkflows } from '../../workers/create-workers';
import { review, submit, waitForJob } from '../support/api-client';
import { markedInvoice, temporalClient } from '../support/operations';
import { sampleWith } from '../support/samples';
import { finishedSimulatorTranscript } from '../support/speech-callback-calls';
import { testDataConverter } from '../support/test-codec';
import { testEnv } from '../support/test-env';

/** Between the old jobs' close and the recent one's: the retention bound falls in its middle. */
const GAP_MS = 8_000;

let client: Client;
let store: ObjectStore;
let config: Config;
let connection: NativeConnection;
let workflowBundle: WorkflowBundle;

beforeAll(async () => {
  client = await temporalClient();
  config = loadConfig(testEnv().productEnv ?? {});
  store = createObjectStore(config);
  connection = await NativeConnection.connect({ address: config.temporal.address });
  workflowBundle = await bundleWorkflows();
});
afterAll(async () => {
  await client.connection.close();
  await connection.close();
});

async function submitted(answer: Awaited<ReturnType<typeof submit>>): Promise<string> {
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  return answer.body.jobId as string;
}

async function bucketKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const key of store.list('')) keys.add(key);
  return keys;
}

async function sha256Of(jobId: string): Promise<string> {
  const memo = (await client.workflow.getHandle(jobId).describe()).memo as { inputSha256?: string };
  assert.ok(memo.inputSha256);
  return memo.inputSha256;
}

/** The keys under the job's content-named prefixes (its upload and extracted text): the test's own reading. */
function contentKeys(all: Set<string>, sha256: string): string[] {
  return [...all].filter((key) => key.startsWith(objectKeys.input('demo', sha256)) || key.startsWith(objectKeys.text('demo', sha256)));
}

async function exists(jobId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(jobId).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/**
 * Runs one sweep on a worker of its own, with demo's retention set so that it falls `retentionMs` before now; with
 * `speechTranscripts`, it also sweeps the speech-callback records of ended jobs.
 */
async function sweep(retentionMs: number, speechTranscripts?: SpeechTranscriptRemover): Promise<SweepTotals> {
  const retention = { ...config.retention, tenantMs: { demo: retentionMs } };
  const taskQueue = `retention-test-${randomUUID()}`;
  const log = createLogger('retention-test', 'warn');
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    workflowBundle,
    dataConverter: testDataConverter(),
    // The bundle's tracing interceptors export through these sinks, as every worker's do.
    sinks: workerTelemetry().sinks,
    activities: createRetentionActivities({
      client,
      store,
      ...(speechTranscripts ? { speechTranscripts } : {}),
      tenants: config.tenants,
      retention,
      log,
      audit: createAuditTrail(store, log),
    }),
  });
  return worker.runUntil(
    client.workflow.execute('retentionSweepWorkflow', { taskQueue, workflowId: `retention-test-${randomUUID()}`, args: [{}] }) as Promise<SweepTotals>,
  );
}

describe('the retention sweep on the real stack (Temporal, S3)', () => {
  test('when the worker has started, then the sweep is scheduled', async () => {
    const { action } = await client.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
    assert.equal(action.type, 'startWorkflow');
    assert.equal(action.type === 'startWorkflow' ? action.workflowType : undefined, 'retentionSweepWorkflow');
  });

  test("when a sweep runs with demo's retention between old and recent jobs, then the old closed jobs' objects and executions are gone, and a running job's input and a recent job's objects stay", async () => {
    // Running: waits for a reviewer. A closed job with the same upload is old, so its upload is the running job's too.
    const ambiguous = await sampleWith('awaiting_review');
    const running = await submitted(await submit(ambiguous.bytes, { fileName: ambiguous.fileName, key: `running-${randomUUID()}` }));
    const sharing = await submitted(await submit(ambiguous.bytes, { fileName: ambiguous.fileName, key: `sharing-${randomUUID()}` }));
    const old = await submitted(await submit((await markedInvoice(`old-${randomUUID()}`)).bytes, { fileName: 'old.txt' }));
    assert.equal((await waitForJob(running, ['awaiting_review', 'posted', 'failed'])).status, 'awaiting_review');
    assert.equal((await waitForJob(sharing, ['awaiting_review', 'posted', 'failed'])).status, 'awaiting_review');
    assert.equal((await review(sharing, { decision: 'reject', reason: 'retention test' })).status, 200);
    assert.equal((await waitForJob(sharing, ['rejected'])).status, 'rejected');
    assert.equal((await waitForJob(old, ['posted', 'failed', 'awaiting_review'])).status, 'posted');
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    const recent = await submitted(await submit((await markedInvoice(`recent-${randomUUID()}`)).bytes, { fileName: 'recent.txt' }));
    assert.equal((await waitForJob(recent, ['posted', 'failed', 'awaiting_review'])).status, 'posted');

    const before = await bucketKeys();
    const oldKeys = contentKeys(before, await sha256Of(old));
    const recentKeys = contentKeys(before, await sha256Of(recent));
    const sharedSha = await sha256Of(running);
    assert.equal(await sha256Of(sharing), sharedSha);
    assert.ok(oldKeys.includes(objectKeys.input('demo', await sha256Of(old))), `the old job's upload is in the bucket before: ${oldKeys.join(', ')}`);
    assert.ok(recentKeys.length >= 2, `the recent job's upload and text are in the bucket before: ${recentKeys.join(', ')}`);
    assert.ok(before.has(objectKeys.input('demo', sharedSha)));

    // The bound falls half the gap before the recent job closed; the running job started before it, too.
    const recentClosed = (await client.workflow.getHandle(recent).describe()).closeTime as Date;
    const totals = await sweep(Date.now() - recentClosed.getTime() + GAP_MS / 2);

    const after = await bucketKeys();
    assert.deepEqual(oldKeys.filter((key) => after.has(key)), [], "the old job's objects are gone");
    assert.deepEqual(recentKeys.filter((key) => !after.has(key)), [], "the recent job's objects stay");
    assert.ok(after.has(objectKeys.input('demo', sharedSha)), "the running job's input stays, though a job that shared it was erased");
    assert.equal(await exists(old), false, "the old job's execution is gone");
    assert.equal(await exists(sharing), false, 'so is the old rejected one');
    assert.equal(await exists(recent), true);
    assert.equal((await client.workflow.getHandle(running).describe()).status.name, 'RUNNING');
    assert.ok(totals.jobs >= 2, JSON.stringify(totals));
    assert.ok(totals.objects >= oldKeys.length, JSON.stringify(totals));
    assert.ok(totals.sharedObjectsKept >= 1, JSON.stringify(totals));

    // Each erasure is on the tenant's audit trail, by the sweep; the kept jobs have no such record.
    const trail = createAuditTrail(store, createLogger('retention-test', 'warn'));
    const expired = async (jobId: string) => (await trail.list('demo', { jobId, action: 'job.expire' }, { limit: 10 })).records;
    const [record] = await expired(old);
    assert.equal(record?.actor.id, 'system:retention');
    assert.equal(record?.actor.kind, 'system');
    assert.equal(record?.outcome, 'done');
    assert.equal((await expired(sharing)).length, 1);
    assert.deepEqual([...(await expired(recent)), ...(await expired(running))], []);
  });

  test("when a sweep runs, then the speech transcripts and callback records of call jobs that closed or are gone are deleted at the provider and in the bucket, and a running job keeps its", async () => {
    const { simulatorUrl } = testEnv();
    if (!simulatorUrl) throw new Error('needs the test stack (npm test)');
    const ambiguous = await sampleWith('awaiting_review');
    const running = await submitted(await submit(ambiguous.bytes, { fileName: ambiguous.fileName, key: `speech-running-${randomUUID()}` }));
    const closed = await submitted(await submit((await markedInvoice(`speech-closed-${randomUUID()}`)).bytes, { fileName: 'closed.txt' }));
    assert.equal((await waitForJob(running, ['awaiting_review', 'posted', 'failed'])).status, 'awaiting_review');
    assert.equal((await waitForJob(closed, ['posted', 'failed', 'awaiting_review'])).status, 'posted');
    const jobs: Record<'running' | 'closed' | 'gone', JobOfCallback> = {
      running: { tenantId: 'demo', jobId: running },
      closed: { tenantId: 'demo', jobId: closed },
      gone: { tenantId: 'demo', jobId: `call.transcribe:demo:gone-${randomUUID()}` },
    };
    // Each job's records as a callback chunk leaves them: armed, submitted, and the callback used.
    const callbacks = speechCallbackStore(store);
    const signer = speechCallbackSigner(config.speech.callbackSecret);
    const transcripts: Record<string, string> = {};
    const callbackIds: Record<string, string> = {};
    for (const [name, job] of Object.entries(jobs)) {
      const transcriptId = await finishedSimulatorTranscript(simulatorUrl);
      const { id } = signer.create('http://127.0.0.1:1');
      const armed = { taskToken: randomUUID(), ...job };
      await callbacks.arm(id, armed);
      await callbacks.recordSubmission(job, `${job.jobId}/chunk-0000`, { transcriptId, callbackId: id });
      await callbacks.claim(id, armed);
      transcripts[name] = transcriptId;
      callbackIds[name] = id;
    }
    const speech = createAssemblyAiSpeechGateway({ settings: { ...config.speech, baseURL: simulatorUrl }, log: createLogger('retention-test', 'warn') });
    const transcriptStatus = async (name: string) => (await fetch(`${simulatorUrl}/v2/transcript/${transcripts[name]}`, { headers: { authorization: 'simulator-key' } })).status;
    const recordsOf = async (job: JobOfCallback) => [...(await bucketKeys())].filter((key) => key.startsWith(speechCallbackKeys.jobPrefix(job)));
    assert.equal((await recordsOf(jobs.gone)).length, 3);

    // A retention far longer than the test's jobs: only the leftovers' sweep has anything to do.
    await sweep(365 * 24 * 60 * 60 * 1000, speech);

    for (const name of ['closed', 'gone'] as const) {
      assert.deepEqual(await recordsOf(jobs[name]), [], `the ${name} job's records are gone`);
      assert.equal(await store.exists(speechCallbackKeys.byId(callbackIds[name] as string)), false, `the ${name} job's pointer is gone`);
      assert.equal(await transcriptStatus(name), 404, `the ${name} job's transcript is deleted at the provider`);
    }
    assert.equal((await recordsOf(jobs.running)).length, 3, "the running job's records stay");
    assert.equal((await callbacks.armed(callbackIds.running as string))?.jobId, running);
    assert.equal(await transcriptStatus('running'), 200, "the running job's transcript stays");
    assert.equal((await client.workflow.getHandle(running).describe()).status.name, 'RUNNING');
  }, 180_000);
});
