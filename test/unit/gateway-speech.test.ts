import assert from '../support/assert';
import { afterAll, afterEach, beforeAll, beforeEach, describe, test } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SlowlaneError } from '../../common/errors';
import type { GatewayEvent } from '../../gateway/gateway-events';
import { gatewayFromConfig, type WiredGateway } from '../../gateway/gateway-from-config';
import { confidenceOfLogprob, isSilenceGuess } from '../../gateway/speech/speech-gateway';
import type { TranscribeRequest, TranscribeResult } from '../../gateway/speech/transcription-call';
import { createLogger } from '../../lib/logger';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import type { TranscriptionStats } from '../../local/simulator/transcriptions/transcription-stats';
import { speakCall } from '../../local/samples/spoken-call';
import { type CallFile, SHORT_CALL, spokenCall, wordsOf } from '../support/spoken-calls';
import { localTestConfig } from '../support/test-credentials';

const LOG = createLogger('gateway-speech-test', 'silent');
const PRICE_PER_MINUTE = 0.006;

describe('the speech-to-text provider behind the gateway', () => {
  let dir: string;
  let scripted: CallFile;
  let unscripted: CallFile;
  let simulator: RunningSimulator;
  let wired: WiredGateway | undefined;
  let events: GatewayEvent[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-speech-'));
    scripted = await spokenCall(dir, 'scripted.wav', true);
    unscripted = await spokenCall(dir, 'unscripted.wav', false);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, audioLatencyBaseMs: 0, audioLatencyPerMinuteMs: 0 });
  });
  afterEach(async () => {
    await wired?.close();
    wired = undefined;
    await simulator.close();
  });

  const wire = (env: Record<string, string> = {}) => {
    const gateway = gatewayFromConfig(
      localTestConfig({ SPEECH_BASE_URL: simulator.url, SPEECH_PRICE_PER_MINUTE: String(PRICE_PER_MINUTE), GATEWAY_INTERACTIVE_SHARE: '0', ...env }),
      LOG,
    );
    wired = gateway;
    events = [];
    gateway.speech.events.subscribe((event) => events.push(event));
    return gateway.speech;
  };
  const chunk = (call: { bytes: Buffer; durationSeconds: number }, filename = 'chunk.wav'): TranscribeRequest => ({
    jobId: 'call-1',
    priority: 'bulk',
    audio: call.bytes,
    filename,
    durationSeconds: call.durationSeconds,
  });
  const stats = async () => (await (await fetch(`${simulator.url}/_sim/transcriptions/stats`)).json()) as TranscriptionStats;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => assert.fail('expected the transcription to fail'),
      (error: unknown) => error as SlowlaneError,
    );

  test('when a call carries its script, then the script comes back timed, segment by segment, billed per audio minute', async () => {
    const result = await wire().transcribe(chunk(scripted));

    assert.deepEqual(
      result.segments.map((segment) => segment.text),
      SHORT_CALL.map((line) => line.text),
    );
    result.segments.forEach((segment, index) => {
      const line = scripted.script[index];
      assert.ok(line && Math.abs(segment.start - line.start) < 0.01 && Math.abs(segment.end - line.end) < 0.01, JSON.stringify(segment));
    });
    assert.equal(result.text, SHORT_CALL.map((line) => line.text).join(' '));
    const billed = Math.ceil(scripted.durationSeconds);
    assert.deepEqual(result.usage, { audioSeconds: billed, costUsd: (billed / 60) * PRICE_PER_MINUTE });
    const seen = await stats();
    assert.equal(seen.billedAudioSeconds, billed);
    assert.deepEqual(seen.byEngine, { script: 1, pocketsphinx: 0 });
    assert.ok(events.some((event) => event.type === 'reserved' && event.cost.input === billed));
  });

  test('when a script marks a line as poorly heard, then its segment carries that confidence and the clear lines a high one', async () => {
    const marked = await speakCall(
      SHORT_CALL.map((line, index) => (index === 1 ? { ...line, confidence: 0.3 } : line)),
      join(dir, 'marked.wav'),
      { carryScript: true },
    );

    const result = await wire().transcribe(chunk({ bytes: await readFile(marked.path), durationSeconds: marked.durationSeconds }));

    const confidences = result.segments.map((segment) => segment.confidence);
    assert.equal(confidences.length, SHORT_CALL.length);
    assert.ok(Math.abs((confidences[1] ?? 0) - 0.3) < 0.001, JSON.stringify(confidences));
    for (const index of [0, 2]) assert.ok((confidences[index] ?? 0) > 0.9, JSON.stringify(confidences));
  });

  test("when a script marks a line as heard over silence, then Whisper's guess is dropped from the segments and the text but its audio is billed, and a confident line with the same no_speech_prob stays", async () => {
    const lines = [
      ...SHORT_CALL,
      // Whisper's classic guess over a silent tail: likely no speech, and unsure of its words.
      { speaker: 'B' as const, text: 'Thank you for watching.', confidence: 0.2, noSpeechProb: 0.9 },
      // Likely no speech, yet sure of its words: transcribe.py keeps such a segment, so do we.
      { speaker: 'A' as const, text: 'Goodbye.', confidence: 0.9, noSpeechProb: 0.9 },
    ];
    const marked = await speakCall(lines, join(dir, 'silence.wav'), { carryScript: true });

    const result = await wire().transcribe(chunk({ bytes: await readFile(marked.path), durationSeconds: marked.durationSeconds }));

    const kept = [...SHORT_CALL.map((line) => line.text), 'Goodbye.'];
    assert.deepEqual(
      result.segments.map((segment) => segment.text),
      kept,
    );
    assert.equal(result.text, kept.join(' '));
    const billed = Math.ceil(marked.durationSeconds);
    assert.equal(result.usage.audioSeconds, billed);
    assert.equal((await stats()).billedAudioSeconds, billed);
  });

  test('when a call carries no script, then pocketsphinx transcribes it: real words, some of them the spoken ones', async () => {
    const result = await wire().transcribe(chunk(unscripted));

    const heard = wordsOf(result.text);
    assert.ok(heard.length > 0, 'pocketsphinx heard nothing');
    const spoken = new Set(SHORT_CALL.flatMap((line) => wordsOf(line.text)));
    assert.ok(heard.some((word) => spoken.has(word)), `no spoken word among: ${result.text}`);
    assert.ok(result.segments.length > 0);
    for (const segment of result.segments) {
      assert.ok(segment.start <= segment.end && segment.end <= unscripted.durationSeconds + 0.5, JSON.stringify(segment));
      // From pocketsphinx's word posteriors, through avg_logprob and back.
      assert.ok(segment.confidence !== undefined && segment.confidence >= 0 && segment.confidence <= 1, JSON.stringify(segment));
    }
    assert.deepEqual((await stats()).byEngine, { script: 0, pocketsphinx: 1 });
  }, 60_000);

  test('when a chunk is larger than the provider takes, then it answers 413 and the error is not retryable', async () => {
    const oversized = { bytes: Buffer.alloc(25 * 1024 * 1024 + 1), durationSeconds: 800 };

    const error = await failure(wire().transcribe(chunk(oversized)));

    assert.equal(error.name, 'DocumentTooLargeError');
    assert.equal(error.retryable, false);
    assert.equal(error.details?.status, 413);
    assert.deepEqual((await stats()).byStatus, { 413: 1 });
  });

  test('when the audio seconds of a minute are spent at the provider, then its 429 carries the wait until they refill', async () => {
    await fetch(`${simulator.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ audioSecondsPerMinute: 20 }) });
    const speech = wire({ GATEWAY_BUDGET: 'off' });
    await speech.transcribe(chunk(scripted));

    const error = await failure(speech.transcribe(chunk(scripted)));

    assert.equal(error.name, 'ModelRateLimitedError');
    assert.equal(error.retryable, true);
    // The bucket refills a third of a second of audio per second: the second chunk's seconds take far longer than 1 s.
    assert.ok((error.retryAfterMs ?? 0) > 5_000, String(error.retryAfterMs));
  });

  test('when the provider answers 429, then the fleet pauses for its retry-after and the retried call succeeds', async () => {
    await fetch(`${simulator.url}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ fault: { kind: 'rate_limit', retryAfterSeconds: 2 }, times: 1 }),
    });
    const speech = wire();

    const first = await failure(speech.transcribe(chunk(scripted)));
    assert.equal(first.name, 'ModelRateLimitedError');
    assert.equal(first.retryAfterMs, 2_000);
    // An immediate retry is held back by the paused budget: it never reaches the provider.
    const early = await failure(speech.transcribe(chunk(scripted)));
    assert.equal(early.name, 'TokenBudgetExhaustedError');
    assert.equal((await stats()).requests, 1);

    const attempts: string[] = [first.name, early.name];
    const result = await retryAsTemporalWould(() => speech.transcribe(chunk(scripted)), early, attempts);

    assert.equal(result.segments.length, SHORT_CALL.length);
    assert.deepEqual((await stats()).byStatus, { 200: 1, 429: 1 });
    assert.ok(events.some((event) => event.type === 'paused' && event.pauseMs === 2_000));
  });

  test('when the provider fails with a 500, then the error is retryable and an unknown format is not', async () => {
    await fetch(`${simulator.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ fault: { kind: 'server_error' }, times: 1 }) });
    const speech = wire();

    const failed = await failure(speech.transcribe(chunk(scripted)));
    assert.equal(failed.name, 'ModelUnavailableError');
    assert.equal(failed.retryable, true);

    const notAudio = await failure(speech.transcribe(chunk({ bytes: Buffer.from('not audio at all'), durationSeconds: 1 }, 'notes.txt')));
    assert.equal(notAudio.name, 'ModelRequestInvalidError');
    assert.equal(notAudio.retryable, false);
  });
});

/** What Temporal does with a retryable error: wait its retryAfterMs, try again; a few attempts at most. */
async function retryAsTemporalWould(
  attempt: () => Promise<TranscribeResult>,
  last: SlowlaneError,
  attempts: string[],
): Promise<TranscribeResult> {
  let error = last;
  for (let tries = 0; tries < 5; tries++) {
    assert.ok(error.retryable, `${error.name} is not retryable`);
    await sleep(error.retryAfterMs ?? 1_000);
    try {
      return await attempt();
    } catch (caught) {
      error = caught as SlowlaneError;
      attempts.push(error.name);
    }
  }
  throw new Error(`no success after ${attempts.join(', ')}`);
}

describe("a verbose_json segment's avg_logprob as its confidence", () => {
  test('when it is a log-probability, then the confidence is exp() of it, clamped to 0..1; when absent or not a number, there is none', () => {
    assert.ok(Math.abs((confidenceOfLogprob(Math.log(0.41)) ?? 0) - 0.41) < 1e-12);
    assert.equal(confidenceOfLogprob(0.002), 1);
    assert.equal(confidenceOfLogprob(-Infinity), undefined);
    assert.equal(confidenceOfLogprob(-1e6), 0);
    assert.equal(confidenceOfLogprob(undefined), undefined);
    assert.equal(confidenceOfLogprob('-0.2'), undefined);
  });
});

describe("Whisper's silence heuristic on a verbose_json segment (no_speech_prob > 0.6 and avg_logprob not above -1)", () => {
  test('when both say silence, then the segment is a silence guess; when either does not, or a field is missing, then it is not', () => {
    assert.equal(isSilenceGuess({ no_speech_prob: 0.61, avg_logprob: -1.5 }), true);
    assert.equal(isSilenceGuess({ no_speech_prob: 0.9, avg_logprob: -1 }), true, 'transcribe.py keeps a segment only when avg_logprob is above -1');
    assert.equal(isSilenceGuess({ no_speech_prob: 0.6, avg_logprob: -3 }), false, 'no_speech_prob must be above 0.6');
    assert.equal(isSilenceGuess({ no_speech_prob: 0.99, avg_logprob: -0.99 }), false, 'a confident segment is kept');
    assert.equal(isSilenceGuess({ no_speech_prob: 0.1, avg_logprob: -3 }), false, 'an unsure segment of speech is kept');
    assert.equal(isSilenceGuess({ avg_logprob: -3 }), false);
    assert.equal(isSilenceGuess({ no_speech_prob: 0.9 }), false);
  });
});
