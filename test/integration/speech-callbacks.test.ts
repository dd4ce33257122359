import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import express from 'express';
import { transcribeAwaitingCallback } from '../../activities/speech/transcribe-with-callback';
import { errorHandler } from '../../api/app';
import { speechCallbackRouter } from '../../api/speech/speech-callback-routes';
import type { SpeechCallbackDeps } from '../../api/speech/speech-callbacks';
import { gatewayFromConfig, type WiredGateway } from '../../gateway/gateway-from-config';
import type { TranscribeResult } from '../../gateway/speech/transcription-call';
import { createLogger } from '../../lib/logger';
import { createObjectStore, type ObjectStore } from '../../lib/object-store';
import { SPEECH_CALLBACK_AUTH_HEADER, type SpeechCallbackSigner, speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { speechCallbackStore } from '../../lib/speech/speech-callback-store';
import { loadConfig } from '../../lib/config';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import type { AsyncTranscriptStats } from '../../local/simulator/transcriptions/assemblyai/async-transcripts';
import { bundleWorkflows } from '../../workers/create-workers';
import { ActivityFailureInterceptor } from '../../workers/activity-failure-interceptor';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { memoryStore } from '../support/memory-store';
import { type CallFile, spokenCall, wordsOf } from '../support/spoken-calls';
import { createTemporalTestEnv } from '../support/temporal-env';
import { testDataConverter } from '../support/test-codec';
import { localTestConfig } from '../support/test-credentials';
import { testEnv } from '../support/test-env';
import type { SpeechCallbackTestActivities } from '../support/speech-callback-workflow';

const LOG = createLogger('speech-callbacks-test', 'silent');

describe('a chunk transcribed through the AssemblyAI shape, waiting on its callback without a worker slot', () => {
  let dir: string;
  let call: CallFile;
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundle;
  let simulator: RunningSimulator;
  let api: Server;
  let apiUrl: string;
  let wired: WiredGateway;
  let store: ObjectStore;
  let signer: SpeechCallbackSigner;
  /** Attempts the activity started, by submission key: the real activity's own count, read after the run. */
  const attempts = new Map<string, number>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'speech-callbacks-'));
    call = await spokenCall(dir, 'call.wav', true);
    env = await createTemporalTestEnv();
    bundle = await bundleWorkflows(require.resolve('../support/speech-callback-workflow'));
    simulator = await startSimulator({ port: 0, audioLatencyBaseMs: 0, audioLatencyPerMinuteMs: 0 });
    // The stack's S3 when `npm test` runs one; a file run alone keeps the records in memory.
    const productEnv = testEnv().productEnv;
    store = productEnv ? createObjectStore(loadConfig(productEnv)) : memoryStore();
    const app = express();
    app.use(express.json());
    const listening = await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    api = listening;
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const config = localTestConfig({ SPEECH_PROVIDER: 'assemblyai', SPEECH_BASE_URL: simulator.url, API_PUBLIC_URL: apiUrl });
    signer = speechCallbackSigner(config.speech.callbackSecret);
    wired = gatewayFromConfig(config, LOG);
    const deps: SpeechCallbackDeps = { client: env.client, speech: wired.speechAsync, callbacks: speechCallbackStore(store), signer, log: LOG };
    app.use(speechCallbackRouter(deps));
    app.use(errorHandler(LOG));
  }, 120_000);

  afterAll(async () => {
    await wired?.close();
    await new Promise((resolve) => api?.close(resolve));
    await simulator?.close();
    await env?.teardown();
    await rm(dir, { recursive: true, force: true });
  });

  const setSimulator = async (settings: Record<string, number>) => {
    const answer = await fetch(`${simulator.url}/_sim/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) });
    assert.equal(answer.status, 200);
  };
  const simulatorStats = async () => (await (await fetch(`${simulator.url}/_sim/assemblyai/stats`)).json()) as AsyncTranscriptStats;

  /** Runs the test workflow on a worker of its own and answers the transcript, with the chunk's submission key. */
  const transcribeOnce = async (): Promise<{ result: TranscribeResult; submissionKey: string }> => {
    const taskQueue = `speech-callbacks-${randomUUID()}`;
    const submissionKey = `test-job-${randomUUID()}/chunk-0000`;
    const activities: SpeechCallbackTestActivities = {
      transcribeTestChunk: (input) => {
        attempts.set(input.submissionKey, Context.current().info.attempt);
        return transcribeAwaitingCallback(
          { speech: wired.speechAsync, callbacks: speechCallbackStore(store), signer, publicUrl: apiUrl },
          { jobId: input.jobId, tenantId: 'test', priority: 'interactive', audio: call.bytes, filename: 'call.wav', durationSeconds: call.durationSeconds, submissionKey: input.submissionKey },
        );
      },
      readTestTranscript: async (input) => {
        const poll = await wired.speechAsync.fetch(input.transcriptId, { jobId: input.jobId });
        if (poll.status !== 'done') throw new Error(`transcript ${input.transcriptId} is ${poll.status} after its callback`);
        return poll.result;
      },
    };
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: bundle,
      dataConverter: testDataConverter(),
      activities,
      interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
      sinks: workerTelemetry().sinks,
    });
    const result = await worker.runUntil(
      env.client.workflow.execute('speechCallbackTestWorkflow', {
        taskQueue,
        workflowId: `speech-callbacks-${randomUUID()}`,
        args: [{ jobId: 'test-job', submissionKey }],
      }) as Promise<TranscribeResult>,
    );
    return { result, submissionKey };
  };

  const assertTranscript = (result: TranscribeResult) => {
    assert.ok(wordsOf(result.text).includes('order'), result.text);
    assert.ok(result.segments.some((segment) => segment.speaker === 'B'), JSON.stringify(result.segments));
    assert.ok(result.usage.audioSeconds >= Math.floor(call.durationSeconds));
    assert.ok(result.usage.costUsd > 0);
  };

  test('when the provider calls back once, then the activity completes from the callback on its first attempt', async () => {
    await setSimulator({ speechCallbackCopies: 1, speechCallbackLossRate: 0, speechCallbackDelayMs: 0 });
    const before = (await simulatorStats()).deliveries.length;

    const { result, submissionKey } = await transcribeOnce();

    assertTranscript(result);
    assert.equal(attempts.get(submissionKey), 1);
    const deliveries = (await simulatorStats()).deliveries.slice(before);
    assert.deepEqual(deliveries.map((delivery) => [delivery.status, JSON.parse(delivery.body).outcome]), [[200, 'completed']]);
  }, 60_000);

  test('when the provider delivers the callback twice, then the second completes nothing and is answered 200 so it stops', async () => {
    await setSimulator({ speechCallbackCopies: 2, speechCallbackLossRate: 0, speechCallbackDelayMs: 0 });
    const before = (await simulatorStats()).deliveries.length;

    const { result, submissionKey } = await transcribeOnce();

    assertTranscript(result);
    assert.equal(attempts.get(submissionKey), 1);
    const deliveries = (await simulatorStats()).deliveries.slice(before);
    assert.deepEqual(deliveries.map((delivery) => [delivery.status, JSON.parse(delivery.body).outcome]), [
      [200, 'completed'],
      [200, 'duplicate'],
    ]);
  }, 60_000);

  test('when the callback is lost, then the next attempt (after the timeout) polls the submitted transcript instead of submitting again', async () => {
    await setSimulator({ speechCallbackCopies: 1, speechCallbackLossRate: 1, speechCallbackDelayMs: 0 });
    const before = await simulatorStats();

    const { result, submissionKey } = await transcribeOnce();

    assertTranscript(result);
    assert.equal(attempts.get(submissionKey), 2);
    const after = await simulatorStats();
    assert.equal(after.submissions - before.submissions, 1);
    assert.equal(after.callbacksLost - before.callbacksLost, 1);
    assert.ok(after.polls > before.polls);
    assert.equal(after.deliveries.length, before.deliveries.length);
  }, 60_000);

  test('when the callback comes after the attempt timed out and the next attempt polled, then it completes nothing', async () => {
    // Later than the activity's 6 s start-to-close timeout: attempt 2 finds the transcript done before the callback.
    await setSimulator({ speechCallbackCopies: 1, speechCallbackLossRate: 0, speechCallbackDelayMs: 8_000 });
    const before = (await simulatorStats()).deliveries.length;

    const { result, submissionKey } = await transcribeOnce();
    let deliveries = (await simulatorStats()).deliveries.slice(before);
    for (let waited = 0; deliveries.length === 0 && waited < 10_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      deliveries = (await simulatorStats()).deliveries.slice(before);
    }

    assertTranscript(result);
    assert.equal(attempts.get(submissionKey), 2);
    assert.deepEqual(deliveries.map((delivery) => [delivery.status, JSON.parse(delivery.body).outcome]), [[200, 'stale']]);
  }, 60_000);

  test('when a callback carries a forged signature or lacks the auth header, then it is refused with a 4xx', async () => {
    const genuine = signer.create(apiUrl);
    const forged = genuine.url.replace(/sig=.*/, 'sig=' + 'A'.repeat(43));
    const post = (url: string, headers: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ transcript_id: 'x', status: 'completed' }) });

    const forgedAnswer = await post(forged, { [SPEECH_CALLBACK_AUTH_HEADER]: genuine.authHeaderValue });
    const headerless = await post(genuine.url, {});
    const otherSecret = speechCallbackSigner(localTestConfig({ SPEECH_CALLBACK_SECRET: 'z'.repeat(8) + randomUUID() + randomUUID() }).speech.callbackSecret).create(apiUrl);
    const otherKeyAnswer = await post(otherSecret.url, { [SPEECH_CALLBACK_AUTH_HEADER]: otherSecret.authHeaderValue });

    assert.equal(forgedAnswer.status, 403);
    assert.equal(headerless.status, 401);
    assert.equal(otherKeyAnswer.status, 403);
  });
});
