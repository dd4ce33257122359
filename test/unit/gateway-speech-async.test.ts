import assert from '../support/assert';
import { afterAll, afterEach, beforeAll, beforeEach, describe, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SlowlaneError } from '../../common/errors';
import { gatewayFromConfig, type WiredGateway } from '../../gateway/gateway-from-config';
import type { TranscribeRequest, TranscriptPoll } from '../../gateway/speech/transcription-call';
import { createLogger } from '../../lib/logger';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { type CallFile, spokenCall, wordsOf } from '../support/spoken-calls';
import { localTestConfig } from '../support/test-credentials';

const LOG = createLogger('gateway-speech-async-test', 'silent');
/** No receiver listens here: these tests read transcripts by polling. */
const NOWHERE = { url: 'http://127.0.0.1:9/callbacks/speech/x', authHeaderName: 'x-test', authHeaderValue: 'v' };

describe("the speech provider in AssemblyAI's asynchronous shape", () => {
  let dir: string;
  let call: CallFile;
  let simulator: RunningSimulator;
  let wired: WiredGateway | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-speech-async-'));
    call = await spokenCall(dir, 'call.wav', true);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, audioLatencyBaseMs: 0, audioLatencyPerMinuteMs: 0 });
    wired = gatewayFromConfig(localTestConfig({ SPEECH_PROVIDER: 'assemblyai', SPEECH_BASE_URL: simulator.url }), LOG);
  });
  afterEach(async () => {
    await wired?.close();
    wired = undefined;
    await simulator.close();
  });

  const request = (jobId: string): TranscribeRequest => ({ jobId, priority: 'bulk', audio: call.bytes, filename: 'call.wav', durationSeconds: call.durationSeconds });
  const settled = async (transcriptId: string): Promise<TranscriptPoll> => {
    for (;;) {
      const poll = await wired!.speechAsync.fetch(transcriptId, { jobId: 'job' });
      if (poll.status !== 'pending') return poll;
      await sleep(50);
    }
  };

  test('when a chunk is submitted and polled, then the transcript comes back in segments with speakers, confidence and its price', async () => {
    const { transcriptId } = await wired!.speechAsync.submit(request('job'), NOWHERE);
    const poll = await settled(transcriptId);

    assert.equal(poll.status, 'done');
    const result = poll.status === 'done' ? poll.result : undefined;
    assert.ok(wordsOf(result?.text ?? '').includes('order'));
    assert.deepEqual(result?.segments.map((segment) => segment.speaker), ['A', 'B', 'A']);
    assert.ok(result?.segments.every((segment) => segment.end > segment.start && (segment.confidence ?? 0) > 0));
    assert.equal(result?.usage.audioSeconds, Math.ceil(Math.round(call.durationSeconds)));
    assert.ok(Math.abs((result?.usage.costUsd ?? 0) - ((result?.usage.audioSeconds ?? 0) / 60) * 0.006) < 1e-9);
  });

  test("when the provider's audio seconds are spent, then the submission is a retryable rate limit with the provider's retry-after", async () => {
    await fetch(`${simulator.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ audioSecondsPerMinute: Math.ceil(call.durationSeconds) + 1 }) });
    await wired!.speechAsync.submit(request('first'), NOWHERE);

    const error = (await wired!.speechAsync.submit(request('second'), NOWHERE).catch((caught: unknown) => caught)) as SlowlaneError;

    assert.equal(error.name, 'ModelRateLimitedError');
    assert.equal(error.retryable, true);
    assert.ok((error.retryAfterMs ?? 0) >= 1000);
  });

  test('when the provider answers 500, then the submission is a retryable unavailable error', async () => {
    await fetch(`${simulator.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ fault: { kind: 'server_error' }, times: 1 }) });

    const error = (await wired!.speechAsync.submit(request('job'), NOWHERE).catch((caught: unknown) => caught)) as SlowlaneError;

    assert.equal(error.name, 'ModelUnavailableError');
    assert.equal(error.retryable, true);
    const stats = (await (await fetch(`${simulator.url}/_sim/assemblyai/stats`)).json()) as { byStatus: Record<string, number> };
    assert.equal(stats.byStatus['500'], 1);
  });

  test('when an unknown transcript is read, then it is a non-retryable invalid request', async () => {
    const error = (await wired!.speechAsync.fetch('no-such-transcript', { jobId: 'job' }).catch((caught: unknown) => caught)) as SlowlaneError;

    assert.equal(error.name, 'ModelRequestInvalidError');
    assert.equal(error.retryable, false);
  });
});
