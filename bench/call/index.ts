import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { Job } from '../../common/api-contract/job';
import { isTerminal } from '../../common/job';
import { loadConfig } from '../../lib/config';
import { createObjectStore } from '../../lib/object-store';
import { longCallScript } from '../../local/samples/long-call';
import { speakCall } from '../../local/samples/spoken-call';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import type { Stack } from '../../local/stack/stack';
import { readBenchFlags } from '../bench-flags';
import { historySizes, type WorkflowHistorySize } from '../workflow-histories';
import { connectBenchClient, startBenchStack } from '../bench-stack';
import { wordErrorRate, type WordErrors } from './word-error-rate';
import { transcriptTextInReview, transcriptTextOf } from './transcript-text';

const execFileAsync = promisify(execFile);

const USAGE = 'usage: npm run bench -- call [--minutes 60] [--wer-minutes 2] [--limit-minutes 60]';
const SECRETS = generateLocalSecrets();
const API_KEY = (SECRETS.tenants[0] as LocalTenant).apiKey;

interface CallRun {
  audioSeconds: number;
  uploadBytes: number;
  status: string;
  wallSeconds: number;
  /** Minutes of audio the job got through per minute of wall time. */
  audioMinutesPerMinute: number;
  costUsd: number;
  usage: Job['usage'];
  largestHistory: WorkflowHistorySize;
  workflows: number;
  /** The job's transcript against the script the audio was spoken from. */
  wordErrors: WordErrors;
}

/**
 * `npm run bench -- call [--minutes 60] [--wer-minutes 2]`: a generated two-voice call of `--minutes` through the
 * `call.transcribe` job on the local stack, end to end through the API (upload, chunking at silences,
 * transcription through the speech gateway, the summary): wall time, audio minutes per minute, cost, the largest
 * history, and the word error rate of its transcript against the script. The long call carries its script, as the
 * demo's do, so the simulator answers with it: its error rate measures what the job adds (cuts, overlaps, joins).
 * Then a `--wer-minutes` call without its script, which the simulator transcribes with pocketsphinx: the local
 * engine's word error rate, reported whatever it is.
 */
export async function runCallBenchmark(argv: string[]): Promise<void> {
  const flags = readBenchFlags(argv, ['minutes', 'wer-minutes', 'limit-minutes'], USAGE);
  const minutes = flags.count('minutes', 60, 1);
  const werMinutes = flags.count('wer-minutes', 2, 1);
  const limitMs = flags.count('limit-minutes', 60, 1) * 60_000;
  const say = (line: string) => console.log(`[call ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const dir = await mkdtemp(join(tmpdir(), 'slowlane-bench-call-'));
  const bench = await startBenchStack('call', { secrets: SECRETS });
  const { client, connection } = await connectBenchClient(bench.stack);
  try {
    say(`speaking a ${minutes}-minute call (espeak-ng, two voices) and the ${werMinutes}-minute one without its script`);
    const long = await compressedCall(dir, 'long-call', minutes, true);
    const plain = await compressedCall(dir, 'plain-call', werMinutes, false);
    say(`submitting the ${(long.audioSeconds / 60).toFixed(1)}-minute call (${(long.bytes.length / 1e6).toFixed(1)} MB)`);
    const scripted = await runCall(bench.stack, client, long, limitMs, say);
    say(`submitting the ${(plain.audioSeconds / 60).toFixed(1)}-minute call without its script (pocketsphinx)`);
    const engine = await runCall(bench.stack, client, plain, limitMs, say);
    const report = {
      benchmark: 'call',
      command: `npm run bench -- call ${argv.join(' ')}`.trim(),
      finishedAt: new Date().toISOString(),
      settings: { minutes, werMinutes },
      scripted,
      localEngine: engine,
    };
    console.table({ scripted: flat(scripted), localEngine: flat(engine) });
    await mkdir(join(__dirname, '..', 'results'), { recursive: true });
    await writeFile(join(__dirname, '..', 'results', 'call.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await connection.close();
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

interface GeneratedCall {
  fileName: string;
  bytes: Buffer;
  audioSeconds: number;
  script: string;
}

/** A call spoken to WAV, then Opus in Ogg at 24 kb/s (an hour is ~11 MB, under the API's upload limit), tag kept. */
async function compressedCall(dir: string, name: string, minutes: number, carryScript: boolean): Promise<GeneratedCall> {
  const wav = join(dir, `${name}.wav`);
  const call = await speakCall(longCallScript(minutes, minutes), wav, { carryScript });
  const ogg = join(dir, `${name}.ogg`);
  await execFileAsync('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '24k', ogg]);
  return { fileName: `${name}.ogg`, bytes: await readFile(ogg), audioSeconds: call.durationSeconds, script: call.script.map((line) => line.text).join(' ') };
}

async function runCall(stack: Stack, client: Client, call: GeneratedCall, limitMs: number, say: (line: string) => void): Promise<CallRun> {
  const form = new FormData();
  form.set('type', 'call.transcribe');
  form.set('file', new Blob([new Uint8Array(call.bytes)], { type: 'audio/ogg' }), call.fileName);
  const started = performance.now();
  const response = await fetch(`${stack.urls.api}/jobs`, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}` }, body: form }).catch((error: unknown) => {
    throw new Error(`POST /jobs failed: ${String((error as { cause?: unknown }).cause ?? error)}`, { cause: error });
  });
  const submitted = (await response.json()) as { jobId?: string; error?: { message?: string } };
  if (response.status !== 202 || !submitted.jobId) throw new Error(`POST /jobs answered ${response.status}: ${submitted.error?.message ?? ''}`);
  const jobId = submitted.jobId;
  let job: Job | undefined;
  let lastProgress = '';
  while (performance.now() - started < limitMs) {
    job = (await (await fetch(`${stack.urls.api}/jobs/${encodeURIComponent(jobId)}`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as Job;
    const progress = job.progress ? `${job.progress.done}/${job.progress.total} ${job.progress.unit ?? ''}` : '';
    if (progress !== lastProgress) say(`${job.status} ${progress}`);
    lastProgress = progress;
    if (settled(job.status)) break;
    await sleep(1000);
  }
  const wallSeconds = (performance.now() - started) / 1000;
  if (!job || !settled(job.status)) throw new Error(`the call job ${jobId} did not finish within the limit`);
  const histories = await historySizes(client, jobId);
  const largest = histories.reduce((a, b) => (b.events > a.events ? b : a));
  const store = createObjectStore(loadConfig(stack.productEnv));
  const transcript = job.status === 'awaiting_review' ? await transcriptTextInReview(stack.urls.api, API_KEY, jobId) : await transcriptTextOf(store, job);
  return {
    audioSeconds: call.audioSeconds,
    uploadBytes: call.bytes.length,
    status: job.status,
    wallSeconds,
    audioMinutesPerMinute: call.audioSeconds / wallSeconds,
    costUsd: job.usage?.costUsd ?? 0,
    usage: job.usage,
    largestHistory: largest,
    workflows: histories.length,
    wordErrors: wordErrorRate(call.script, transcript),
  };
}

/** Finished, or waiting for a person: a call heard with low confidence (CALL_REVIEW_CONFIDENCE) goes to review. */
const settled = (status: Job['status']): boolean => isTerminal(status) || status === 'awaiting_review';

function flat(run: CallRun): Record<string, string | number> {
  return {
    status: run.status,
    audioMinutes: run.audioSeconds / 60,
    wallSeconds: run.wallSeconds,
    audioMinutesPerMinute: run.audioMinutesPerMinute,
    costUsd: run.costUsd,
    largestHistoryEvents: run.largestHistory.events,
    workflows: run.workflows,
    wer: run.wordErrors.rate,
  };
}
