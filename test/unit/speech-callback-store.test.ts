import assert from '../support/assert';
import { createHash } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { CompleteAsyncError } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { transcribeAwaitingCallback } from '../../activities/speech/transcribe-with-callback';
import type { AsyncSpeechGateway } from '../../gateway/speech/transcription-call';
import { Secret } from '../../lib/secret';
import { deleteJobSpeechRecords, deleteLegacySpeechRecords } from '../../lib/speech/job-speech-records';
import { speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { speechCallbackStore } from '../../lib/speech/speech-callback-store';
import { memoryStore } from '../support/memory-store';

const JOB = { tenantId: 'demo', jobId: 'call.transcribe:demo:key-1' };
const OTHER = { tenantId: 'demo', jobId: 'call.transcribe:demo:key-2' };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** The flat keys the build before this one wrote: written here by hand, as that build's worker would have. */
const legacyArmedKey = (id: string) => `speech-callbacks/armed/${id}.json`;
const legacySubmissionKey = (key: string) => `speech-callbacks/submissions/${sha256(key)}.json`;

const keysOf = (store: ReturnType<typeof memoryStore>) => [...store.objects.keys()].sort();

describe('the speech-callback records: kept under their job, found by callback id, the old flat keys still read', () => {
  test('when a callback is armed and its chunk submitted, then every record is under the tenant and job but one pointer by id, and the route finds it by id', async () => {
    const store = memoryStore();
    const callbacks = speechCallbackStore(store);
    await callbacks.arm('cb-1', { taskToken: 'token-1', ...JOB });
    await callbacks.recordSubmission(JOB, `${JOB.jobId}/chunk-0000`, { transcriptId: 't-1', callbackId: 'cb-1' });
    assert.equal(await callbacks.claim('cb-1', { taskToken: 'token-1', ...JOB }), true);

    const jobPrefix = `speech-callbacks/jobs/demo/${encodeURIComponent(JOB.jobId)}/`;
    const keys = keysOf(store);
    assert.deepEqual(keys.filter((key) => !key.startsWith(jobPrefix)), ['speech-callbacks/by-id/cb-1.json']);
    assert.equal(keys.filter((key) => key.startsWith(jobPrefix)).length, 3, keys.join('\n'));
    assert.deepEqual(await callbacks.armed('cb-1'), { taskToken: 'token-1', ...JOB });
    assert.equal(await callbacks.claim('cb-1', { taskToken: 'token-1', ...JOB }), false, 'a second delivery is a duplicate');
    assert.equal(await callbacks.armed('cb-unknown'), undefined);
  });

  test('when the build before armed a callback under its flat key, then the callback route still finds it and uses it once', async () => {
    const store = memoryStore();
    const callbacks = speechCallbackStore(store);
    await store.put(legacyArmedKey('cb-old'), JSON.stringify({ taskToken: 'token-old', jobId: JOB.jobId }), { contentType: 'application/json' });
    const armed = await callbacks.armed('cb-old');
    assert.deepEqual(armed, { taskToken: 'token-old', jobId: JOB.jobId });
    assert.ok(armed);
    assert.equal(await callbacks.claim('cb-old', armed), true);
    assert.equal(await callbacks.claim('cb-old', armed), false);
  });

  test('when the build before recorded a chunk submission under its flat key, then a retried attempt polls that transcript instead of paying again, and the record moves under the job', async () => {
    const store = memoryStore();
    const callbacks = speechCallbackStore(store);
    const submissionKey = `${JOB.jobId}/chunk-0003`;
    await store.put(legacySubmissionKey(submissionKey), JSON.stringify({ transcriptId: 't-old', callbackId: 'cb-old' }), { contentType: 'application/json' });
    const asked = { submitted: 0, polled: [] as string[] };
    const provider: AsyncSpeechGateway = {
      async submit() {
        asked.submitted += 1;
        return { transcriptId: 't-new' };
      },
      async fetch(transcriptId) {
        asked.polled.push(transcriptId);
        return { status: 'pending' };
      },
    };
    const deps = { speech: provider, callbacks, signer: speechCallbackSigner(new Secret('a-test-secret-long-enough-for-hmac-32b')), publicUrl: 'http://127.0.0.1:1' };
    const request = { ...JOB, priority: 'bulk' as const, audio: new Uint8Array(4), filename: 'chunk-0003.flac', durationSeconds: 30, submissionKey };
    await assert.rejects(new MockActivityEnvironment().run(transcribeAwaitingCallback, deps, request), CompleteAsyncError);

    assert.deepEqual(asked, { submitted: 0, polled: ['t-old'] });
    assert.equal(store.objects.has(legacySubmissionKey(submissionKey)), false, 'the flat key is gone');
    assert.deepEqual(await callbacks.submission(JOB, submissionKey), { transcriptId: 't-old', callbackId: 'cb-old' });
    assert.equal((await callbacks.armed('cb-old'))?.tenantId, 'demo', 're-armed under the job');
  });

  test("when a job's speech records are deleted, then each transcript it submitted is deleted at the provider and none of its records or pointers remain, and another job's stay", async () => {
    const store = memoryStore();
    const callbacks = speechCallbackStore(store);
    for (const [job, index] of [[JOB, 0], [JOB, 1], [OTHER, 0]] as const) {
      await callbacks.arm(`cb-${job.jobId.slice(-1)}-${index}`, { taskToken: `token-${index}`, ...job });
      await callbacks.recordSubmission(job, `${job.jobId}/chunk-${index}`, { transcriptId: `t-${job.jobId.slice(-1)}-${index}`, callbackId: `cb-${job.jobId.slice(-1)}-${index}` });
    }
    const otherKeys = keysOf(store).filter((key) => key.includes(encodeURIComponent(OTHER.jobId)) || key.endsWith('cb-2-0.json'));
    const deleted: string[] = [];
    const transcripts = { deleteTranscript: async (id: string) => void deleted.push(id) };

    assert.deepEqual(await deleteJobSpeechRecords({ store, transcripts }, JOB), { transcripts: 2 });

    assert.deepEqual(deleted.sort(), ['t-1-0', 't-1-1']);
    assert.deepEqual(keysOf(store), otherKeys.sort());
    assert.equal(await callbacks.armed('cb-1-0'), undefined);
    assert.deepEqual(await deleteJobSpeechRecords({ store, transcripts }, JOB), { transcripts: 0 }, 'run again, it finds nothing');
  });

  test('when the provider fails to delete a transcript, then the records that name it stay, so the erasure sent again finds it', async () => {
    const store = memoryStore();
    const callbacks = speechCallbackStore(store);
    await callbacks.arm('cb-1', { taskToken: 'token-1', ...JOB });
    await callbacks.recordSubmission(JOB, `${JOB.jobId}/chunk-0000`, { transcriptId: 't-1', callbackId: 'cb-1' });
    const before = keysOf(store);
    const failing = { deleteTranscript: async () => Promise.reject(new Error('provider down')) };

    await assert.rejects(deleteJobSpeechRecords({ store, transcripts: failing }, JOB), /provider down/);

    assert.deepEqual(keysOf(store), before);
  });

  test("when the sweep meets the build before's flat records, then an ended job's transcript and records go, and a running job's, or one whose job is unknown, stay", async () => {
    const store = memoryStore();
    const json = { contentType: 'application/json' };
    const legacy = async (jobId: string | undefined, index: number) => {
      const submissionKey = `${jobId ?? 'unknown'}/chunk-${index}`;
      await store.put(legacySubmissionKey(submissionKey), JSON.stringify({ transcriptId: `t-${index}`, callbackId: `cb-${index}` }), json);
      if (jobId) await store.put(legacyArmedKey(`cb-${index}`), JSON.stringify({ taskToken: `token-${index}`, jobId }), json);
      await store.put(`speech-callbacks/claims/cb-${index}/${sha256(`token-${index}`)}`, 'used', { contentType: 'text/plain' });
    };
    await legacy(JOB.jobId, 0);
    await legacy(OTHER.jobId, 1);
    await legacy(undefined, 2);
    const deleted: string[] = [];
    const deps = { store, transcripts: { deleteTranscript: async (id: string) => void deleted.push(id) }, stillRuns: async (jobId: string) => jobId === OTHER.jobId };

    const page = await deleteLegacySpeechRecords(deps, { limit: 10 });

    assert.deepEqual(page, { jobs: 1, transcripts: 1 });
    assert.deepEqual(deleted, ['t-0']);
    const keys = keysOf(store);
    assert.equal(keys.filter((key) => key.includes('cb-0') || key === legacySubmissionKey(`${JOB.jobId}/chunk-0`)).length, 0, keys.join('\n'));
    assert.equal(keys.filter((key) => key.includes('cb-1') || key === legacySubmissionKey(`${OTHER.jobId}/chunk-1`)).length, 3, 'the running job keeps its');
    assert.ok(store.objects.has(legacySubmissionKey('unknown/chunk-2')), 'a submission whose job is unknown is kept');
  });

  test('when the flat submissions are more than a page, then each page names where the next starts and the pages together see them all', async () => {
    const store = memoryStore();
    const json = { contentType: 'application/json' };
    for (let index = 0; index < 5; index++) {
      await store.put(legacySubmissionKey(`job-${index}/chunk-0`), JSON.stringify({ transcriptId: `t-${index}`, callbackId: `cb-${index}` }), json);
      await store.put(legacyArmedKey(`cb-${index}`), JSON.stringify({ taskToken: 'token', jobId: `job-${index}` }), json);
    }
    const deleted: string[] = [];
    const deps = { store, transcripts: { deleteTranscript: async (id: string) => void deleted.push(id) }, stillRuns: async () => false };
    const pages: Array<{ jobs: number; next?: string }> = [];
    let after: string | undefined;
    do {
      const page = await deleteLegacySpeechRecords(deps, { ...(after ? { after } : {}), limit: 2 });
      pages.push(page);
      after = page.next;
    } while (after);

    assert.deepEqual(pages.map((page) => page.jobs), [2, 2, 1]);
    assert.deepEqual(deleted.sort(), ['t-0', 't-1', 't-2', 't-3', 't-4']);
    assert.deepEqual(keysOf(store), []);
  });
});
