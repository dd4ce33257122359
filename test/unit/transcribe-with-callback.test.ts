import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { CompleteAsyncError } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { transcribeAwaitingCallback } from '../../activities/speech/transcribe-with-callback';
import { ModelRequestInvalidError } from '../../common/errors';
import type { AsyncSpeechGateway, TranscriptPoll } from '../../gateway/speech/transcription-call';
import { Secret } from '../../lib/secret';
import { speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { speechCallbackStore } from '../../lib/speech/speech-callback-store';
import { memoryStore } from '../support/memory-store';

/** A provider that answers polls as the test says and counts what it is sent (the door, not the thing under test). */
function scriptedProvider(pollAnswer: () => TranscriptPoll): AsyncSpeechGateway & { submitted: number; polled: number } {
  const provider = {
    submitted: 0,
    polled: 0,
    async submit() {
      provider.submitted += 1;
      return { transcriptId: `t-${provider.submitted}` };
    },
    async fetch() {
      provider.polled += 1;
      return pollAnswer();
    },
  };
  return provider;
}

const request = { jobId: 'job-1', tenantId: 'demo', priority: 'bulk' as const, audio: new Uint8Array(4), filename: 'chunk-0.flac', durationSeconds: 30, submissionKey: 'job-1/chunk-0000' };

/** One attempt of the activity: what it handed back (CompleteAsyncError means it went to wait for the callback). */
async function attempt(provider: AsyncSpeechGateway, callbacks: ReturnType<typeof speechCallbackStore>): Promise<'waiting' | string> {
  const deps = { speech: provider, callbacks, signer: speechCallbackSigner(new Secret('a-test-secret-long-enough-for-hmac-32b')), publicUrl: 'http://127.0.0.1:1' };
  try {
    const finished = (await new MockActivityEnvironment().run(transcribeAwaitingCallback, deps, request)) as { transcriptId: string };
    return finished.transcriptId;
  } catch (error) {
    if (error instanceof CompleteAsyncError) return 'waiting';
    throw error;
  }
}

describe('transcribeAwaitingCallback: one submission per chunk, polled by later attempts', () => {
  test('when an earlier attempt submitted and the transcript is still being made, then this attempt waits again without submitting', async () => {
    const callbacks = speechCallbackStore(memoryStore());
    const provider = scriptedProvider(() => ({ status: 'pending' }));
    assert.equal(await attempt(provider, callbacks), 'waiting');
    assert.equal(await attempt(provider, callbacks), 'waiting');
    assert.deepEqual([provider.submitted, provider.polled], [1, 1]);
  });

  test('when the earlier submission is done, then its id comes back and nothing is submitted again', async () => {
    const callbacks = speechCallbackStore(memoryStore());
    let done = false;
    const provider = scriptedProvider(() => (done ? { status: 'done', result: { text: '', segments: [], durationSeconds: 30, model: 'm', usage: { audioSeconds: 30, costUsd: 0 } } } : { status: 'pending' }));
    await attempt(provider, callbacks);
    done = true;
    assert.equal(await attempt(provider, callbacks), 't-1');
    assert.equal(provider.submitted, 1);
  });

  test('when the provider failed the earlier submission, then the next attempt (an operator retry) submits the chunk anew instead of reading the failure again', async () => {
    const callbacks = speechCallbackStore(memoryStore());
    let failed = false;
    const provider = scriptedProvider(() => (failed ? { status: 'failed', error: new ModelRequestInvalidError('Transcription failed: unreadable audio') } : { status: 'pending' }));
    await attempt(provider, callbacks);
    failed = true;
    assert.equal(await attempt(provider, callbacks), 'waiting');
    assert.equal(provider.submitted, 2);
    assert.equal((await callbacks.submission({ tenantId: 'demo', jobId: 'job-1' }, request.submissionKey))?.transcriptId, 't-2');
  });
});
