import assert from '../support/assert';
import { afterAll, afterEach, beforeAll, beforeEach, describe, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import type { CallRecord } from '../../local/simulator/stats';
import type { EmbeddingStats } from '../../local/simulator/state';
import type { TranscriptionStats } from '../../local/simulator/transcriptions/transcription-stats';
import { type CallFile, spokenCall } from '../support/spoken-calls';

/**
 * A provider bills the work it did even when its client went away before the answer (a killed worker, an aborted
 * call). The simulator logs those answers apart, so a spend check can tell a settlement the product lost from a
 * call whose cost no worker could ever learn (bench/chaos/spend-check.ts).
 */
describe('answers whose client went away', () => {
  let simulator: RunningSimulator;
  let dir: string;
  let recording: CallFile;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'simulator-undelivered-'));
    recording = await spokenCall(dir, 'scripted.wav', true);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    // Slow enough that the client can leave while the answer is made.
    simulator = await startSimulator({
      port: 0,
      latencyBaseMs: 600,
      latencyPerOutputTokenMs: 0,
      embedLatencyBaseMs: 600,
      audioLatencyBaseMs: 600,
      audioLatencyPerMinuteMs: 0,
    });
  });
  afterEach(() => simulator.close());

  const message = (signal?: AbortSignal) =>
    fetch(`${simulator.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sim-test-key', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 256, messages: [{ role: 'user', content: 'Say hello.' }] }),
      ...(signal ? { signal } : {}),
    });

  const embedding = (signal?: AbortSignal) =>
    fetch(`${simulator.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ input: ['one chunk of text to embed'], model: 'voyage-3.5' }),
      ...(signal ? { signal } : {}),
    });

  /** Sends, and aborts once the simulator has the request; resolves when the simulator has answered it anyway. */
  async function abandoned(send: (signal: AbortSignal) => Promise<Response>, answered: () => Promise<boolean>) {
    const abort = new AbortController();
    const sent = send(abort.signal).then(
      () => 'answered',
      () => 'gave up',
    );
    await sleep(150);
    abort.abort();
    assert.equal(await sent, 'gave up', 'the client left before the answer');
    for (let tries = 0; tries < 100 && !(await answered()); tries++) await sleep(50);
  }

  const transcription = (signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', new Blob([recording.bytes], { type: 'audio/wav' }), 'chunk.wav');
    form.append('model', 'whisper-1');
    return fetch(`${simulator.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: form,
      ...(signal ? { signal } : {}),
    });
  };

  const calls = async () => ((await (await fetch(`${simulator.url}/_sim/calls?status=200`)).json()) as { calls: CallRecord[] }).calls;
  const embeddingStats = async () => (await (await fetch(`${simulator.url}/_sim/embeddings/stats`)).json()) as EmbeddingStats;
  const transcriptionStats = async () => (await (await fetch(`${simulator.url}/_sim/transcriptions/stats`)).json()) as TranscriptionStats;

  test('when a Messages client aborts before its answer, then the billed call is logged undelivered, and a received one is not', async () => {
    assert.equal((await message()).status, 200);
    await abandoned(message, async () => (await calls()).length === 2);

    const logged = await calls();
    assert.equal(logged.length, 2, 'both calls answered 200 and billed');
    assert.equal(logged[0]?.undelivered, undefined);
    assert.equal(logged[1]?.undelivered, true);
  });

  test('when an embeddings client aborts before its answer, then its tokens are billed and counted undelivered', async () => {
    assert.equal((await embedding()).status, 200);
    const received = (await embeddingStats()).tokens;
    assert.ok(received > 0);
    await abandoned(embedding, async () => (await embeddingStats()).tokens > received);

    const stats = await embeddingStats();
    assert.equal(stats.tokens, 2 * received, 'both requests billed');
    assert.equal(stats.undeliveredTokens, received, 'only the abandoned one undelivered');
  });

  test('when a transcription client aborts before its answer, then its audio seconds are billed and counted undelivered', async () => {
    assert.equal((await transcription()).status, 200);
    const received = (await transcriptionStats()).billedAudioSeconds;
    assert.ok(received > 0);
    await abandoned(transcription, async () => (await transcriptionStats()).billedAudioSeconds > received);

    const stats = await transcriptionStats();
    assert.equal(stats.billedAudioSeconds, 2 * received, 'both requests billed');
    assert.equal(stats.undeliveredAudioSeconds, received, 'only the abandoned one undelivered');
  });
});
