import assert from '../support/assert';
import { afterAll, afterEach, beforeAll, beforeEach, describe, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { segmentsOf } from '../../local/simulator/transcriptions/pocketsphinx';
import { ProcessSlots } from '../../local/simulator/transcriptions/process-slots';
import { type CallFile, SHORT_CALL, spokenCall } from '../support/spoken-calls';

describe('the simulator as an OpenAI-compatible transcription API', () => {
  let dir: string;
  let scripted: CallFile;
  let simulator: RunningSimulator;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'simulator-transcriptions-'));
    scripted = await spokenCall(dir, 'scripted.wav', true);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, audioLatencyBaseMs: 0, audioLatencyPerMinuteMs: 0 });
  });
  afterEach(async () => {
    await simulator.close();
  });

  const post = (fields: Record<string, string>, headers: Record<string, string> = { authorization: 'Bearer sk-test' }) => {
    const form = new FormData();
    form.append('file', new Blob([scripted.bytes], { type: 'audio/wav' }), 'call.wav');
    form.append('model', 'whisper-1');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return fetch(`${simulator.url}/v1/audio/transcriptions`, { method: 'POST', headers, body: form });
  };

  test('when no format is named, then the answer is json: the text and the billed duration', async () => {
    const response = await post({});
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      text: SHORT_CALL.map((line) => line.text).join(' '),
      usage: { type: 'duration', seconds: Math.ceil(scripted.durationSeconds) },
    });
  });

  test('when vtt or text is asked for, then the answer is that text, one cue per spoken line', async () => {
    const vtt = await post({ response_format: 'vtt' });
    assert.match(vtt.headers.get('content-type') ?? '', /^text\/vtt/);
    const cues = (await vtt.text()).split('\n').filter((line) => line.includes(' --> '));
    assert.equal(cues.length, SHORT_CALL.length);
    assert.match(cues[0] ?? '', /^00:00:00\.000 --> 00:00:0\d\.\d{3}$/);
    const text = await (await post({ response_format: 'text' })).text();
    assert.equal(text.trim(), SHORT_CALL.map((line) => line.text).join(' '));
  });

  test('when verbose_json with word timestamps is asked for, then segments and words come back, words inside their segment', async () => {
    const body = (await (await post({ response_format: 'verbose_json', 'timestamp_granularities[]': 'word' })).json()) as {
      task: string;
      duration: number;
      segments: Array<{ id: number; start: number; end: number; text: string }>;
      words: Array<{ word: string; start: number; end: number }>;
    };
    assert.equal(body.task, 'transcribe');
    assert.equal(body.segments.length, SHORT_CALL.length);
    const first = body.segments[0]!;
    const firstWords = body.words.filter((word) => word.end <= first.end + 1e-9);
    assert.equal(firstWords.map((word) => word.word).join(' '), SHORT_CALL[0]?.text);
  });

  test('when the request has no key, an unknown format or a granularity without verbose_json, then the API refuses it', async () => {
    assert.equal((await post({}, {})).status, 401);
    const unknown = await post({ response_format: 'docx' });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /response_format/);
    assert.equal((await post({ 'timestamp_granularities[]': 'segment' })).status, 400);
  });

  test('when the concurrent request limit is reached, then the next request gets 429 with retry-after', async () => {
    await fetch(`${simulator.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ audioConcurrentRequests: 1, audioLatencyBaseMs: 1_000 }) });
    const first = post({});
    // The first is admitted before it sleeps its latency; wait until the simulator has it in flight.
    for (let tries = 0; tries < 200; tries++) {
      const stats = (await (await fetch(`${simulator.url}/_sim/transcriptions/stats`)).json()) as { maxInFlight: number };
      if (stats.maxInFlight === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = await post({});
    assert.equal(second.status, 429);
    assert.equal(second.headers.get('retry-after'), '1');
    assert.equal((await first).status, 200);
  });
});

describe("pocketsphinx's output", () => {
  test('when it prints utterances with word times, then each becomes a segment of its words, fillers dropped', () => {
    const output = [
      'are you the portal',
      '<s> 0.000 0.150 0.998701',
      'are 0.160 0.530 0.357858',
      '<sil> 0.540 0.810 0.995012',
      'you 0.820 0.900 0.201415',
      'the(2) 0.910 1.180 0.757651',
      '[NOISE] 1.190 1.240 0.759168',
      '</s> 1.250 1.700 1.000000',
      'do you',
      '<s> 2.000 2.100 0.9',
      'do 2.130 2.400 0.756364',
      'you 2.410 2.520 0.886465',
      '</s> 2.530 2.800 1.000000',
    ].join('\n');
    assert.deepEqual(segmentsOf(output), [
      // Each utterance's confidence is the mean of its words' posteriors: (0.357858 + 0.201415 + 0.757651) / 3.
      { start: 0.16, end: 1.18, text: 'are you the', confidence: 0.439 },
      { start: 2.13, end: 2.52, text: 'do you', confidence: 0.821 },
    ]);
  });
});

describe('the transcriber slots', () => {
  test('when more runs arrive than slots, then at most the limit run at once and every run finishes', async () => {
    const slots = new ProcessSlots(() => 2);
    let running = 0;
    let most = 0;
    let finished = 0;
    const gates: Array<() => void> = [];
    const runs = Array.from({ length: 5 }, () =>
      slots
        .run(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise<void>((resolve) => gates.push(resolve));
          running -= 1;
        })
        .then(() => (finished += 1)),
    );
    // One run let go at a time, and a newcomer arriving just as a slot frees.
    while (finished < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      gates.shift()?.();
      if (finished === 2 && runs.length === 5) runs.push(slots.run(async () => (most = Math.max(most, running + 1))).then(() => 0));
    }
    await Promise.all(runs);
    assert.equal(most, 2);
  });
});
