import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { JobProgress } from '../../common/job';
import type { CallResult } from '../../common/job-types/call/call-job';
import type { CallTranscript } from '../../common/job-types/call/transcript';
import { loadConfig } from '../../lib/config';
import { createObjectStore } from '../../lib/object-store';
import { SAMPLE_CALL } from '../../local/samples/sample-call';
import { speakCall } from '../../local/samples/spoken-call';
import type { CallTranscript as ApiCallTranscript } from '../../common/api-contract/call-transcript';
import { apiUrl, demo, review, submit, waitForJob } from '../support/api-client';
import { slowlane } from '../support/cli';
import { schemaProblems } from '../support/openapi-conformance';
import { spokenCall, wordsOf } from '../support/spoken-calls';
import { testEnv } from '../support/test-env';

const execFileAsync = promisify(execFile);
const CALL = { fields: { type: 'call.transcribe' } };

describe('a call job through the real stack (API, Temporal, S3, the simulator’s transcriptions and model)', () => {
  let dir: string;
  const store = () => createObjectStore(loadConfig(testEnv().productEnv ?? {}));
  const readJson = async <T>(key: string): Promise<T> => JSON.parse((await store().getBytes(key)).toString('utf8')) as T;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'call-job-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('when a two-voice call carrying its script is submitted, then it is cut into chunks, transcribed once per line, summarised, with progress in minutes', async () => {
    const call = await speakCall(SAMPLE_CALL, join(dir, 'support-call.wav'), { carryScript: true });
    const submitted = await submit(await readFile(call.path), { fileName: 'support-call.wav', ...CALL });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    assert.match(jobId, /^call\.transcribe:demo:/);

    const done = await waitForJob(jobId, ['completed', 'failed', 'dead_letter', 'awaiting_review'], 180_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const result = done.result as CallResult;
    assert.deepEqual(schemaProblems('CallTranscribeResult', result), []);
    // The test stack cuts every 10 s (local/stack/test-runner.ts): a call of half a minute makes several chunks.
    assert.ok(result.chunks >= 2, `${result.chunks} chunks for ${call.durationSeconds} s`);
    assert.ok(Math.abs(result.durationSeconds - call.durationSeconds) < 1);

    // Each line of the script once, in order, though the chunks overlap; times within the call.
    const transcript = await readJson<CallTranscript>(result.transcriptKey);
    assert.deepEqual(
      transcript.segments.map((segment) => segment.text),
      SAMPLE_CALL.map((line) => line.text),
    );
    for (const [index, segment] of transcript.segments.entries()) {
      const line = call.script[index];
      assert.ok(line && Math.abs(segment.start - line.start) < 0.05 && Math.abs(segment.end - line.end) < 0.05, JSON.stringify({ segment, line }));
    }
    const vtt = (await store().getBytes(result.vttKey)).toString('utf8');
    assert.match(vtt, /^WEBVTT\n\n00:00:00\.000 --> 00:00:0\d\.\d{3}\nHello, thank you for calling Northwind support\./);
    assert.equal(vtt.match(/ --> /g)?.length, SAMPLE_CALL.length);

    // The model's summary: the agent's promise is an action item, and the call ends with a follow-up.
    assert.equal(result.summarizedBy, 'model');
    assert.equal(result.summary.outcome, 'follow_up');
    assert.ok(result.summary.actionItems.some((item) => /send you the invoice/.test(item.text)), JSON.stringify(result.summary));

    // Progress: every minute of the call transcribed; usage: a transcription per chunk and the summary, priced.
    const progress = done.progress as JobProgress;
    assert.deepEqual([progress.unit, progress.done, progress.total], ['minutes', 1, 1]);
    const usage = done.usage as { calls: number; costUsd: number };
    assert.equal(usage.calls, result.chunks + 1);
    const speechPrice = loadConfig(testEnv().productEnv ?? {}).speech.pricePerMinute;
    assert.ok(usage.costUsd >= (result.audioSecondsBilled / 60) * speechPrice, JSON.stringify(usage));
  }, 240_000);

  test('when a short call carries no script, then pocketsphinx hears it in one chunk, poorly: its words reach the transcript, which is readable while the call waits in review for its low confidence', async () => {
    const call = await spokenCall(dir, 'plain-call.wav', false);
    const submitted = await submit(call.bytes, { fileName: 'plain-call.wav', ...CALL });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const waiting = await waitForJob(jobId, ['completed', 'failed', 'dead_letter', 'awaiting_review'], 180_000);
    // pocketsphinx's word posteriors on espeak's voices are low: the call goes to a person, saying why.
    assert.equal(waiting.status, 'awaiting_review', JSON.stringify(waiting));
    assert.match(waiting.reviewReason ?? '', /^transcription confidence 0\.\d\d below 0\.60$/);
    const answer = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/transcript`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(answer.status, 200);
    const transcript = (await answer.json()) as ApiCallTranscript;
    assert.equal(transcript.reviewConfidence, 0.6);
    assert.ok(transcript.segments.length > 0 && transcript.segments.every((segment) => segment.confidence !== undefined), JSON.stringify(transcript));
    const heard = new Set(transcript.segments.flatMap((segment) => wordsOf(segment.text)));
    const spoken = new Set(call.script.flatMap((line) => wordsOf(line.text)));
    const common = [...spoken].filter((word) => heard.has(word));
    assert.ok(common.length >= 3, `heard "${transcript.segments.map((segment) => segment.text).join(' ')}"`);
    assert.equal((await review(jobId, { decision: 'reject', reason: 'pocketsphinx test done' })).status, 200);
  }, 240_000);

  test('when a call is submitted with npx slowlane --type call.transcribe --wait, then its progress is printed in minutes and it completes', async () => {
    const call = await spokenCall(dir, 'cli-call.wav', true);
    const run = await slowlane(['submit', call.path, '--type', 'call.transcribe', '--wait', '--json'], { timeoutMs: 180_000 });
    assert.equal(run.code, 0, run.stderr);
    const [outcome] = JSON.parse(run.stdout) as Array<{ jobId?: string; status: string; progress?: JobProgress }>;
    assert.match(outcome?.jobId ?? '', /^call\.transcribe:demo:/);
    assert.equal(outcome?.status, 'completed', run.stderr);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith(`${outcome?.jobId}: `) && line.includes(' minutes'));
    assert.match(lines.at(-1) ?? '', /: 1\/1 minutes · [\d,]+ tokens · \$0\.\d{4}$/, run.stderr);
  }, 240_000);

  test('when a recording is longer than CALL_MAX_DURATION_SECONDS, then the door answers 413 too_long with the limit, and no job starts', async () => {
    const path = join(dir, 'long-silence.flac');
    await execFileAsync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '960', '-c:a', 'flac', path]);
    const submitted = await submit(await readFile(path), { fileName: 'long.flac', ...CALL });
    assert.equal(submitted.status, 413, JSON.stringify(submitted.body));
    const error = (submitted.body as unknown as { error: { code: string; details: { durationSeconds: number; limitSeconds: number } } }).error;
    assert.equal(error.code, 'too_long');
    assert.deepEqual(error.details, { durationSeconds: 960, limitSeconds: 900 });
  }, 60_000);

  test('when the bytes are not a recording (a PDF, or a WAV header over noise), then the door answers 415', async () => {
    const pdf = await submit(Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), { fileName: 'call.wav', ...CALL });
    assert.equal(pdf.status, 415, JSON.stringify(pdf.body));
    const fake = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVE', 'latin1'), Buffer.alloc(2048, 0x7f)]);
    const notAudio = await submit(fake, { fileName: 'call.wav', ...CALL });
    assert.equal(notAudio.status, 415, JSON.stringify(notAudio.body));
  }, 60_000);
});
