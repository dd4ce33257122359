import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pickFault } from '../../fault-picker';
import { type Fault, parseFaultHeader } from '../../faults';
import { jsonReply, type HttpReply } from '../../http-reply';
import type { SimulatorState } from '../../state';
import { type AudioFacts, probeAudio } from '../audio-probe';
import { hearAudio } from '../hear-audio';
import { transcriptionFaultReply } from '../transcription-errors';
import type { AudioUpload } from '../transcriptions-handler';
import type { SimTranscript } from './async-transcripts';
import { finishedTranscript } from './transcript-object';
import { deliverWebhook } from './webhook-delivery';

export interface AsyncCall {
  state: SimulatorState;
  headers: IncomingHttpHeaders;
  sleep: (ms: number) => Promise<void>;
}

/** Where uploads appear to live: AssemblyAI answers its own CDN's URL; these only name an upload of this simulator. */
const UPLOAD_URL_PREFIX = 'https://cdn.assemblyai.sim/upload/';

/** AssemblyAI's error envelope: `{ error: "message" }`. */
function assemblyAiError(status: number, message: string, retryAfterSeconds?: number): HttpReply {
  return jsonReply(status, { error: message }, retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {});
}

/** The key alone in `authorization`, as AssemblyAI takes it (any non-empty value passes here). */
function authorized(headers: IncomingHttpHeaders): boolean {
  const raw = headers.authorization;
  return ((Array.isArray(raw) ? raw[0] : raw) ?? '').trim() !== '';
}

function counted(state: SimulatorState, reply: HttpReply): HttpReply {
  const stats = state.asyncTranscripts.stats;
  stats.byStatus[reply.status] = (stats.byStatus[reply.status] ?? 0) + 1;
  return reply;
}

/** `POST /v2/upload`: the raw bytes, answered with the URL to submit. */
export function handleUpload(call: AsyncCall & { body: AudioUpload }): HttpReply {
  const { state } = call;
  if (!authorized(call.headers)) return counted(state, assemblyAiError(401, 'Authentication error, API token missing/invalid'));
  if ('tooLarge' in call.body) return counted(state, assemblyAiError(413, `Upload exceeds ${call.body.limit} bytes`));
  const id = randomUUID();
  state.asyncTranscripts.uploads.set(id, call.body.bytes);
  state.asyncTranscripts.stats.uploads += 1;
  return counted(state, jsonReply(200, { upload_url: `${UPLOAD_URL_PREFIX}${id}` }));
}

interface SubmitBody {
  audio_url?: unknown;
  speaker_labels?: unknown;
  language_code?: unknown;
  speech_models?: unknown;
  webhook_url?: unknown;
  webhook_auth_header_name?: unknown;
  webhook_auth_header_value?: unknown;
}

/**
 * `POST /v2/transcript`: checks the upload and the limits (audio seconds per minute and transcripts in progress, the
 * same limiter as the synchronous route, with 429 and `retry-after`), answers `queued` at once, then transcribes in
 * the background with the synchronous route's engine and calls the webhook back.
 */
export async function handleSubmit(call: AsyncCall & { body: unknown }): Promise<HttpReply> {
  const { state } = call;
  const book = state.asyncTranscripts;
  book.stats.submissions += 1;
  if (!authorized(call.headers)) return counted(state, assemblyAiError(401, 'Authentication error, API token missing/invalid'));
  const body = (call.body ?? {}) as SubmitBody;
  if (typeof body.audio_url !== 'string') return counted(state, assemblyAiError(400, 'audio_url is required'));
  const bytes = body.audio_url.startsWith(UPLOAD_URL_PREFIX) ? book.uploads.get(body.audio_url.slice(UPLOAD_URL_PREFIX.length)) : undefined;
  if (!bytes) return counted(state, assemblyAiError(400, `Download error, unable to download ${body.audio_url}`));
  if (body.webhook_url !== undefined && typeof body.webhook_url !== 'string') return counted(state, assemblyAiError(400, 'webhook_url must be a string'));

  const rawHeader = call.headers['x-sim-fault'];
  const headerValue = (Array.isArray(rawHeader) ? rawHeader[0] : rawHeader)?.trim();
  const header = headerValue ? parseFaultHeader(headerValue) : undefined;
  if (header && !header.ok) return counted(state, assemblyAiError(400, header.message));

  const dir = await mkdtemp(join(tmpdir(), 'slowlane-sim-async-audio-'));
  let handedOff = false;
  try {
    const path = join(dir, 'upload');
    await writeFile(path, bytes);
    const audio = await probeAudio(path);
    if (!audio) return counted(state, assemblyAiError(400, 'Transcoding failed. File does not appear to contain audio.'));
    const speechModel = Array.isArray(body.speech_models) && typeof body.speech_models[0] === 'string' ? body.speech_models[0] : 'universal-2';
    const chosen = pickFault({
      header: header?.ok ? header.value : null,
      rules: state.rules,
      facts: { tool: null, model: speechModel, documentText: audio.script?.map((segment) => segment.text).join(' ') ?? '' },
      rates: state.settings,
      random: state.faultRandom,
    });
    const faultReply = chosen ? transcriptionFaultReply(chosen.fault) : null;
    if (faultReply) {
      const message = (faultReply.body as { error?: { message?: string } }).error?.message ?? 'simulated fault';
      return counted(state, assemblyAiError(faultReply.status, message, Number(faultReply.headers['retry-after']) || undefined));
    }
    const admission = state.transcriptionsLimiter.admit(audio.durationSeconds);
    if (!admission.admitted) {
      return counted(state, assemblyAiError(429, `Too many requests: ${admission.limit} limit reached`, admission.retryAfterSeconds));
    }
    const transcript: SimTranscript = {
      id: randomUUID(),
      status: 'queued',
      request: {
        audioUrl: body.audio_url,
        speakerLabels: body.speaker_labels === true,
        speechModel,
        ...(typeof body.language_code === 'string' ? { languageCode: body.language_code } : {}),
        ...(typeof body.webhook_url === 'string'
          ? {
              webhook: {
                url: body.webhook_url,
                ...(typeof body.webhook_auth_header_name === 'string' ? { authHeaderName: body.webhook_auth_header_name } : {}),
                ...(typeof body.webhook_auth_header_value === 'string' ? { authHeaderValue: body.webhook_auth_header_value } : {}),
              },
            }
          : {}),
      },
    };
    book.transcripts.set(transcript.id, transcript);
    handedOff = true;
    void transcribeLater({ call, transcript, path, dir, audio, fault: chosen?.fault, release: admission.release });
    return counted(state, jsonReply(200, transcriptObject(transcript)));
  } finally {
    if (!handedOff) await rm(dir, { recursive: true, force: true });
  }
}

/** `GET /v2/transcript/{id}`: the poll. */
export function handleGetTranscript(call: AsyncCall, id: string): HttpReply {
  const { state } = call;
  state.asyncTranscripts.stats.polls += 1;
  if (!authorized(call.headers)) return counted(state, assemblyAiError(401, 'Authentication error, API token missing/invalid'));
  const transcript = state.asyncTranscripts.transcripts.get(id);
  if (!transcript) return counted(state, assemblyAiError(404, 'Transcript not found'));
  return counted(state, jsonReply(200, transcriptObject(transcript)));
}

/**
 * `DELETE /v2/transcript/{id}`: the transcript and its uploaded audio are removed; the answer is the object with its
 * words blanked, as AssemblyAI's is. Afterwards the id answers 404 here (a transcript unknown or deleted before, too).
 */
export function handleDeleteTranscript(call: AsyncCall, id: string): HttpReply {
  const { state } = call;
  const book = state.asyncTranscripts;
  book.stats.deletions += 1;
  if (!authorized(call.headers)) return counted(state, assemblyAiError(401, 'Authentication error, API token missing/invalid'));
  const transcript = book.transcripts.get(id);
  if (!transcript) return counted(state, assemblyAiError(404, 'Transcript not found'));
  book.transcripts.delete(id);
  if (transcript.request.audioUrl.startsWith(UPLOAD_URL_PREFIX)) book.uploads.delete(transcript.request.audioUrl.slice(UPLOAD_URL_PREFIX.length));
  return counted(state, jsonReply(200, { ...transcriptObject(transcript), text: 'Deleted by user.', words: null, utterances: null }));
}

async function transcribeLater(input: {
  call: AsyncCall;
  transcript: SimTranscript;
  path: string;
  dir: string;
  audio: AudioFacts;
  fault: Fault | undefined;
  release: () => void;
}): Promise<void> {
  const { call, transcript, audio } = input;
  const { state } = call;
  try {
    transcript.status = 'processing';
    const hearing = await hearAudio({ state, path: input.path, audio, dir: input.dir, fault: input.fault, sleep: call.sleep });
    if (hearing.ok) {
      transcript.result = finishedTranscript(hearing.segments, audio.durationSeconds, {
        fromScript: audio.script !== undefined,
        speakerLabels: transcript.request.speakerLabels,
      });
      transcript.status = 'completed';
      state.transcriptionStats.billedAudioSeconds += Math.ceil(audio.durationSeconds);
      state.transcriptionStats.billedAudioMinutes = state.transcriptionStats.billedAudioSeconds / 60;
    } else {
      transcript.status = 'error';
      transcript.error = `Transcription failed: ${hearing.message}`;
    }
  } catch (error) {
    transcript.status = 'error';
    transcript.error = error instanceof Error ? error.message : String(error);
  } finally {
    input.release();
    await rm(input.dir, { recursive: true, force: true });
  }
  // A simulator closing mid-wait aborts the sleep: the webhook of a transcript finished at shutdown is not sent.
  await deliverWebhook(state, transcript, call.sleep).catch(() => undefined);
}

function transcriptObject(transcript: SimTranscript): Record<string, unknown> {
  const { request } = transcript;
  return {
    id: transcript.id,
    status: transcript.status,
    audio_url: request.audioUrl,
    speech_model: request.speechModel,
    language_code: request.languageCode ?? 'en_us',
    speaker_labels: request.speakerLabels,
    webhook_url: request.webhook?.url ?? null,
    webhook_auth: request.webhook?.authHeaderName !== undefined,
    webhook_auth_header_name: request.webhook?.authHeaderName ?? null,
    text: null,
    words: null,
    utterances: null,
    confidence: null,
    audio_duration: null,
    ...(transcript.result ?? {}),
    ...(transcript.status === 'error' ? { error: transcript.error } : {}),
  };
}
