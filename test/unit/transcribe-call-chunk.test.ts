import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { TranscribeCallChunkResult } from '../../activities/call/contracts';
import { createTranscribeCallChunk } from '../../activities/call/transcribe-call-chunk';
import type { SpeechGateway, TranscribeRequest, TranscribeResult } from '../../gateway/speech/transcription-call';
import { memoryStore } from '../support/memory-store';

const CHUNK = { index: 3, key: 'calls/demo/job/chunks/0003.flac', start: 58, end: 122, ownStart: 60, ownEnd: 120 };
const INPUT = { jobId: 'call.transcribe:demo:k', tenantId: 'demo', priority: 'bulk' as const, chunk: CHUNK };

/** A provider that answers each request with one segment and counts what it was sent. */
function countingSpeech(): SpeechGateway & { requests: TranscribeRequest[] } {
  const requests: TranscribeRequest[] = [];
  return {
    requests,
    async transcribe(request): Promise<TranscribeResult> {
      requests.push(request);
      return { text: 'hello', segments: [{ start: 0.5, end: 1.5, text: 'hello' }], durationSeconds: 64, model: 'whisper-1', usage: { audioSeconds: 64, costUsd: 0.0064 } };
    },
  };
}

describe('transcribeCallChunk', () => {
  test('when a chunk is transcribed, then its transcript is in S3 and the provider is billed for the chunk with its overlap', async () => {
    const store = memoryStore();
    store.objects.set(CHUNK.key, Buffer.from('fLaC audio'));
    const speech = countingSpeech();
    const result = (await new MockActivityEnvironment().run(createTranscribeCallChunk({ store, speech }), INPUT)) as TranscribeCallChunkResult;
    assert.deepEqual([speech.requests.length, speech.requests[0]?.durationSeconds, speech.requests[0]?.filename], [1, 64, '0003.flac']);
    assert.equal(result.reused, false);
    assert.deepEqual(result.usage, { inputTokens: 0, outputTokens: 0, costUsd: 0.0064, calls: 1 });
    const stored = JSON.parse(store.objects.get(result.transcriptKey)?.toString('utf8') ?? '{}') as { segments: unknown[] };
    assert.deepEqual(stored.segments, [{ start: 0.5, end: 1.5, text: 'hello' }]);
  });

  test('when an earlier attempt stored the transcript but its result was lost (a killed worker), then the retry reuses it and pays nothing again', async () => {
    const store = memoryStore();
    store.objects.set(CHUNK.key, Buffer.from('fLaC audio'));
    const speech = countingSpeech();
    const transcribe = createTranscribeCallChunk({ store, speech });
    const first = (await new MockActivityEnvironment().run(transcribe, INPUT)) as TranscribeCallChunkResult;
    const retried = (await new MockActivityEnvironment({ attempt: 2 }).run(transcribe, INPUT)) as TranscribeCallChunkResult;
    assert.equal(speech.requests.length, 1);
    assert.equal(retried.reused, true);
    assert.equal(retried.transcriptKey, first.transcriptKey);
    // The lost attempt's bill reaches the job once, through the retry that found its transcript.
    assert.deepEqual(retried.usage, first.usage);
  });
});
