import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Payload } from '@temporalio/common';
import { defaultPayloadConverter } from '@temporalio/common';
import express from 'express';
import { createCallActivities } from '../../activities/call';
import { errorHandler } from '../../api/app';
import { speechCallbackRouter } from '../../api/speech/speech-callback-routes';
import type { CallJobInput, CallJobState } from '../../common/job-types/call/call-job';
import { jobTypeNamed } from '../../common/job-types/registry';
import type { CallTranscript } from '../../common/job-types/call/transcript';
import { gatewayFromConfig, type WiredGateway } from '../../gateway/gateway-from-config';
import { type Config, loadConfig } from '../../lib/config';
import { eraseClosedJob } from '../../lib/erasure/erase-closed-job';
import { createLogger } from '../../lib/logger';
import type { ObjectStore } from '../../lib/object-store';
import { speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { speechCallbackKeys, speechCallbackStore } from '../../lib/speech/speech-callback-store';
import { SAMPLE_CALL } from '../../local/samples/sample-call';
import { type SpokenCall, speakCall } from '../../local/samples/spoken-call';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import type { AsyncTranscriptStats } from '../../local/simulator/transcriptions/assemblyai/async-transcripts';
import { createActivityDeps } from '../../workers/activity-deps';
import { testDataConverter } from '../support/test-codec';
import { testEnv } from '../support/test-env';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

const LOG = createLogger('call-job-callback-test', 'silent');

/**
 * A call job on the real workflow and activities with SPEECH_PROVIDER=assemblyai: the stack's Temporal and S3, a
 * simulator of its own (its callback faults are switched per test) and the callback route on an API of its own.
 */
describe('a call job through the provider that calls back (SPEECH_PROVIDER=assemblyai)', () => {
  let dir: string;
  let call: SpokenCall & { bytes: Buffer };
  let harness: WorkflowHarness;
  let simulator: RunningSimulator;
  let api: Server;
  let wired: WiredGateway;
  let config: Config;
  let store: ObjectStore;
  let activities: ReturnType<typeof createCallActivities>;

  beforeAll(async () => {
    const { productEnv } = testEnv();
    if (!productEnv) throw new Error('needs the test stack (npm test): its S3 is where the callbacks are armed');
    dir = await mkdtemp(join(tmpdir(), 'call-job-callback-'));
    const spoken = await speakCall(SAMPLE_CALL, join(dir, 'support-call.wav'), { carryScript: true });
    call = { ...spoken, bytes: await readFile(spoken.path) };
    harness = await createWorkflowHarness();
    simulator = await startSimulator({ port: 0, audioLatencyBaseMs: 0, audioLatencyPerMinuteMs: 0 });
    const app = express();
    app.use(express.json());
    api = await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    config = loadConfig({
      ...productEnv,
      SPEECH_PROVIDER: 'assemblyai',
      SPEECH_BASE_URL: simulator.url,
      ANTHROPIC_BASE_URL: simulator.url,
      API_PUBLIC_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
      // Chunks of about 10 s, so the half-minute call makes several; a lost callback is polled after 5 s.
      CALL_CHUNK_SECONDS: '10',
      CALL_CALLBACK_WAIT: '5s',
    });
    wired = gatewayFromConfig(config, LOG);
    // The worker's own wiring (workers/activity-deps.ts) decides the callback path from SPEECH_PROVIDER.
    const deps = createActivityDeps(config, { gateway: wired.gateway, embeddings: wired.embeddings, speech: wired.speech, speechAsync: wired.speechAsync });
    store = deps.store;
    activities = createCallActivities(deps);
    app.use(
      speechCallbackRouter({
        client: harness.env.client,
        speech: wired.speechAsync,
        callbacks: speechCallbackStore(store),
        signer: speechCallbackSigner(config.speech.callbackSecret),
        log: LOG,
      }),
    );
    app.use(errorHandler(LOG));
  }, 180_000);

  afterAll(async () => {
    await wired?.close();
    await new Promise((resolve) => api?.close(resolve));
    await simulator?.close();
    await harness?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const setSimulator = async (settings: Record<string, number>) => {
    const answer = await fetch(`${simulator.url}/_sim/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) });
    assert.equal(answer.status, 200);
  };
  const simulatorStats = async () => (await (await fetch(`${simulator.url}/_sim/assemblyai/stats`)).json()) as AsyncTranscriptStats;
  const readJson = async <T>(key: string): Promise<T> => JSON.parse((await store.getBytes(key)).toString('utf8')) as T;

  /** Runs one call job to its end on a harness worker with the real call activities; its state and history. */
  const runCallJob = async () => {
    const jobId = `call.transcribe:test:${randomUUID()}`;
    const key = `inputs/test/${randomUUID()}`;
    await store.put(key, call.bytes, { contentType: 'audio/wav' });
    const input: CallJobInput = {
      jobId,
      tenantId: 'test',
      priority: 'interactive',
      document: { bucket: config.s3.bucket, key, sha256: 'call', contentType: 'audio/wav', sizeBytes: call.bytes.length, fileName: 'support-call.wav' },
      reviewTimeoutMs: 60 * 60 * 1000,
      deadLetterTimeoutMs: 60 * 60 * 1000,
      submittedAt: new Date().toISOString(),
    };
    return harness.withWorker(activities, async (_start, _score, taskQueue) => {
      const handle = await harness.env.client.workflow.start('callTranscribeWorkflow', { taskQueue, workflowId: jobId, args: [input] });
      const state = (await handle.result()) as CallJobState;
      return { jobId, runId: (await handle.describe()).runId, state, history: await handle.fetchHistory() };
    });
  };

  /** The decoded results of every completed attempt of one activity type, from the job's history. */
  const resultsOf = async (history: Awaited<ReturnType<typeof runCallJob>>['history'], activityType: string): Promise<unknown[]> => {
    const events = history.events ?? [];
    const scheduled = new Set(
      events.filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === activityType).map((event) => String(event.eventId)),
    );
    const codecs = [...(testDataConverter().payloadCodecs ?? [])].reverse();
    const results: unknown[] = [];
    for (const event of events) {
      const completed = event.activityTaskCompletedEventAttributes;
      if (!completed || !scheduled.has(String(completed.scheduledEventId))) continue;
      let payloads = (completed.result?.payloads ?? []) as Payload[];
      for (const codec of codecs) payloads = await codec.decode(payloads);
      results.push(...payloads.map((payload) => defaultPayloadConverter.fromPayload(payload)));
    }
    return results;
  };

  const billedBySimulator = async () => ((await (await fetch(`${simulator.url}/_sim/transcriptions/stats`)).json()) as { billedAudioSeconds: number }).billedAudioSeconds;

  /**
   * Every chunk billed once: a transcription per chunk and the summary in the job's usage, and the job's audio seconds
   * are what the provider billed for this job's transcripts (each submitted once), priced once. The simulator meters
   * each transcript's exact length rounded up but reports `audio_duration` rounded, so they may differ by a second a
   * chunk; a chunk counted twice would add its whole length (about CALL_CHUNK_SECONDS).
   */
  const assertBilledOnce = (state: CallJobState, providerBilledSeconds: number) => {
    const result = state.result;
    assert.ok(result);
    assert.equal(state.usage.calls, result.chunks + 1);
    assert.ok(Math.abs(result.audioSecondsBilled - providerBilledSeconds) <= result.chunks, JSON.stringify({ job: result.audioSecondsBilled, providerBilledSeconds }));
    const speechCost = (result.audioSecondsBilled / 60) * config.speech.pricePerMinute;
    assert.ok(state.usage.costUsd >= speechCost - 1e-9, JSON.stringify({ usage: state.usage, speechCost }));
  };

  test('when the provider calls back once per chunk, then the job completes with each line once, its speaker, and the history holds only transcript ids', async () => {
    await setSimulator({ speechCallbackCopies: 1, speechCallbackLossRate: 0, speechCallbackDelayMs: 0 });
    const before = await simulatorStats();
    const billedBefore = await billedBySimulator();

    const { state, history } = await runCallJob();

    assert.equal(state.status, 'completed', JSON.stringify(state));
    const result = state.result;
    assert.ok(result && result.chunks >= 2, JSON.stringify(result));
    const transcript = await readJson<CallTranscript>(result.transcriptKey);
    assert.deepEqual(
      transcript.segments.map((segment) => [segment.speaker, segment.text]),
      SAMPLE_CALL.map((line) => [line.speaker, line.text]),
    );
    assert.ok(transcript.segments.every((segment) => typeof segment.confidence === 'number'), JSON.stringify(transcript.segments));
    const vtt = (await store.getBytes(result.vttKey)).toString('utf8');
    assert.match(vtt, /\n<v A>Hello, thank you for calling Northwind support\./);
    assert.match(vtt, /\n<v B>Hello Sam\./);
    assertBilledOnce(state, (await billedBySimulator()) - billedBefore);

    const after = await simulatorStats();
    assert.equal(after.submissions - before.submissions, result.chunks);
    const completions = await resultsOf(history, 'awaitCallChunkTranscript');
    assert.equal(completions.length, result.chunks);
    for (const completion of completions) assert.deepEqual(Object.keys(completion as object), ['transcriptId'], JSON.stringify(completion));
  }, 240_000);

  test('when every callback is lost, then each chunk is polled after its wait and the job completes, submitting each chunk once', async () => {
    await setSimulator({ speechCallbackCopies: 1, speechCallbackLossRate: 1, speechCallbackDelayMs: 0 });
    const before = await simulatorStats();
    const billedBefore = await billedBySimulator();

    const { state } = await runCallJob();

    assert.equal(state.status, 'completed', JSON.stringify(state));
    const chunks = state.result?.chunks ?? 0;
    const after = await simulatorStats();
    assert.equal(after.submissions - before.submissions, chunks);
    assert.equal(after.callbacksLost - before.callbacksLost, chunks);
    assert.ok(after.polls - before.polls >= chunks, `${after.polls - before.polls} polls`);
    assertBilledOnce(state, (await billedBySimulator()) - billedBefore);
  }, 240_000);

  test('when every callback is delivered twice, then the second copies complete nothing and the usage counts each chunk once', async () => {
    await setSimulator({ speechCallbackCopies: 2, speechCallbackLossRate: 0, speechCallbackDelayMs: 0 });
    const before = (await simulatorStats()).deliveries.length;
    const billedBefore = await billedBySimulator();

    const { state } = await runCallJob();

    assert.equal(state.status, 'completed', JSON.stringify(state));
    const chunks = state.result?.chunks ?? 0;
    let deliveries = (await simulatorStats()).deliveries.slice(before);
    for (let waited = 0; deliveries.length < 2 * chunks && waited < 10_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      deliveries = (await simulatorStats()).deliveries.slice(before);
    }
    const outcomes = deliveries.map((delivery) => `${delivery.status} ${(JSON.parse(delivery.body) as { outcome: string }).outcome}`).sort();
    assert.deepEqual(outcomes, [...Array(chunks).fill('200 completed'), ...Array(chunks).fill('200 duplicate')]);
    assertBilledOnce(state, (await billedBySimulator()) - billedBefore);
  }, 240_000);

  test("when a finished call job is erased, then the bucket holds none of its speech-callback records and the provider none of its transcripts", async () => {
    await setSimulator({ speechCallbackCopies: 1, speechCallbackLossRate: 0, speechCallbackDelayMs: 0 });
    const { jobId, runId, state, history } = await runCallJob();
    assert.equal(state.status, 'completed', JSON.stringify(state));
    const transcriptIds = (await resultsOf(history, 'awaitCallChunkTranscript')).map((completion) => (completion as { transcriptId: string }).transcriptId);
    assert.equal(transcriptIds.length, state.result?.chunks);
    const job = { tenantId: 'test', jobId };
    const records = async () => {
      const keys: string[] = [];
      for await (const key of store.list(speechCallbackKeys.jobPrefix(job))) keys.push(key);
      return keys;
    };
    const armedIds = (await records()).flatMap((key) => speechCallbackKeys.callbackIdOfArmed(key) ?? []);
    assert.equal(armedIds.length, transcriptIds.length, 'one armed callback per chunk, under the job');
    const transcriptStatus = async (id: string) => (await fetch(`${simulator.url}/v2/transcript/${id}`, { headers: { authorization: 'simulator-key' } })).status;
    for (const id of transcriptIds) assert.equal(await transcriptStatus(id), 200);

    await eraseClosedJob(
      { client: harness.env.client, store, speechTranscripts: wired.speechAsync },
      { tenantId: 'test', jobId, runId, definition: jobTypeNamed('call.transcribe'), memo: {}, reason: 'call-job-callback test erasure' },
    );

    assert.deepEqual(await records(), []);
    for (const id of armedIds) assert.equal(await store.exists(speechCallbackKeys.byId(id)), false, `the pointer of callback ${id} is gone`);
    for (const id of transcriptIds) assert.equal(await transcriptStatus(id), 404, `transcript ${id} is deleted at the provider`);
    // A transcript already gone counts as deleted: an erasure sent again does not fail on it.
    await wired.speechAsync.deleteTranscript(transcriptIds[0] as string);
  }, 240_000);
});
