import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pickFault } from '../fault-picker';
import { parseFaultHeader } from '../faults';
import type { HttpReply } from '../http-reply';
import type { SimulatorState } from '../state';
import { probeAudio } from './audio-probe';
import { type Hearing, hearAudio } from './hear-audio';
import { transcriptionAnswer } from './transcription-answer';
import { openAiError, transcriptionFaultReply } from './transcription-errors';
import { parseTranscriptionRequest } from './transcription-request';

/** The request body as the server read it: the bytes, or only how many there were when past the upload limit. */
export type AudioUpload = { bytes: Buffer; contentType: string } | { tooLarge: true; bytesRead: number; limit: number };

export interface TranscriptionCall {
  state: SimulatorState;
  headers: IncomingHttpHeaders;
  body: AudioUpload;
  sleep: (ms: number) => Promise<void>;
  /** The client went away before the answer: billed all the same, but no client learned what it cost. */
  clientGone: () => boolean;
}

function bearerKey(headers: IncomingHttpHeaders): string {
  const raw = headers.authorization;
  const value = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  return /^Bearer\s+(\S+)/i.exec(value.trim())?.[1] ?? '';
}

/**
 * `POST /v1/audio/transcriptions` in the shape of OpenAI's API: multipart upload up to 25 MiB (413 beyond), audio
 * seconds per minute and requests in flight with 429 and `retry-after`, the fault switch, and a real transcript:
 * the recording's own script when it carries one (common/job-types/call/script-tag.ts), else pocketsphinx's hearing of it.
 */
export async function handleTranscription(call: TranscriptionCall): Promise<HttpReply> {
  const { state } = call;
  const stats = state.transcriptionStats;
  stats.requests += 1;
  const reply = (answer: HttpReply): HttpReply => {
    stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1;
    return answer;
  };
  if (bearerKey(call.headers) === '') {
    return reply(openAiError(401, "You didn't provide an API key. Send it as Authorization: Bearer <key>."));
  }
  const upload = call.body;
  if ('tooLarge' in upload) {
    return reply(openAiError(413, `Maximum content size limit (${upload.limit}) exceeded (${upload.bytesRead} bytes read)`));
  }
  const parsed = await parseTranscriptionRequest(upload.bytes, upload.contentType);
  if (!parsed.ok) return reply(openAiError(400, parsed.message));
  const request = parsed.value;

  const rawHeader = call.headers['x-sim-fault'];
  const headerValue = (Array.isArray(rawHeader) ? rawHeader[0] : rawHeader)?.trim();
  const header = headerValue ? parseFaultHeader(headerValue) : undefined;
  if (header && !header.ok) return reply(openAiError(400, header.message));

  const dir = await mkdtemp(join(tmpdir(), 'slowlane-sim-audio-'));
  try {
    const input = join(dir, `upload${extname(request.file.filename).slice(0, 8)}`);
    await writeFile(input, request.file.bytes);
    const audio = await probeAudio(input);
    if (!audio) {
      return reply(openAiError(400, 'Invalid file format. Supported formats: [flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm]'));
    }
    const chosen = pickFault({
      header: header?.ok ? header.value : null,
      rules: state.rules,
      facts: { tool: null, model: request.model, documentText: audio.script?.map((segment) => segment.text).join(' ') ?? '' },
      rates: state.settings,
      random: state.faultRandom,
    });
    const faultReply = chosen ? transcriptionFaultReply(chosen.fault) : null;
    if (faultReply) return reply(faultReply);
    const admission = state.transcriptionsLimiter.admit(audio.durationSeconds);
    if (!admission.admitted) {
      const limit =
        admission.limit === 'concurrency'
          ? `${state.settings.audioConcurrentRequests} concurrent requests`
          : `${state.settings.audioSecondsPerMinute} audio seconds per minute`;
      return reply(
        openAiError(429, `Rate limit reached for ${request.model} on ${limit}. Please try again in ${admission.retryAfterSeconds}s.`, {
          type: 'requests',
          code: 'rate_limit_exceeded',
          retryAfterSeconds: admission.retryAfterSeconds,
        }),
      );
    }
    stats.maxInFlight = Math.max(stats.maxInFlight, state.transcriptionsLimiter.requestsInFlight);
    let hearing: Hearing;
    try {
      hearing = await hearAudio({ state, path: input, audio, dir, fault: chosen?.fault, sleep: call.sleep });
    } finally {
      admission.release();
    }
    if (!hearing.ok) {
      return reply(openAiError(500, `The server had an error while processing your request: ${hearing.message}.`, { type: 'server_error' }));
    }
    const segments = hearing.segments;
    const billedSeconds = Math.ceil(audio.durationSeconds);
    stats.billedAudioSeconds += billedSeconds;
    stats.billedAudioMinutes = stats.billedAudioSeconds / 60;
    if (call.clientGone()) stats.undeliveredAudioSeconds += billedSeconds;
    return reply(
      transcriptionAnswer(request.responseFormat, segments, audio.durationSeconds, {
        language: request.language ?? 'english',
        words: request.granularities.includes('word'),
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
