import { ModelRequestInvalidError } from '../../common/errors';
import type { SpeechTranscriptRemover } from '../../lib/speech/job-speech-records';
import type { GatewayEvents } from '../gateway-events';
import { errorOfBody, SpeechHttpError, toSpeechError } from './speech-errors';
import { createSpeechMeter, type SpeechGatewayDeps } from './speech-meter';
import type { AsyncSpeechGateway, TranscribeResult, TranscriptPoll, TranscriptSegment } from './transcription-call';

/**
 * The asynchronous speech door as the worker wires it, with the same events as the synchronous one; it also deletes
 * a job's transcripts when the job is erased (the API and the retention sweep use that half).
 */
export interface WiredAsyncSpeechGateway extends AsyncSpeechGateway, SpeechTranscriptRemover {
  readonly events: GatewayEvents;
}

/** AssemblyAI's transcript object, the fields we read (times in milliseconds, `audio_duration` in seconds). */
interface Transcript {
  id?: unknown;
  status?: unknown;
  error?: unknown;
  text?: unknown;
  language_code?: unknown;
  audio_duration?: unknown;
  utterances?: unknown;
  words?: unknown;
}

interface TimedText {
  text?: unknown;
  start?: unknown;
  end?: unknown;
  speaker?: unknown;
  confidence?: unknown;
}

/**
 * AssemblyAI's asynchronous API behind the speech meter (speech-meter.ts): `POST /v2/upload` (the bytes), then
 * `POST /v2/transcript` with the upload's URL, the webhook and its auth header, and speaker labels; `GET
 * /v2/transcript/{id}` reads it. The upload and submit hold one concurrency slot and reserve the chunk's audio
 * seconds, as a synchronous call does; the provider works on it after the slot is given back. `DELETE
 * /v2/transcript/{id}` deletes one, outside the budget (no audio goes out); a 404 is a transcript already gone.
 */
export function createAssemblyAiSpeechGateway(deps: SpeechGatewayDeps): WiredAsyncSpeechGateway {
  const { settings } = deps;
  const meter = createSpeechMeter(deps);
  const base = settings.baseURL.replace(/\/$/, '');
  // AssemblyAI takes the key itself as the authorization header, without a scheme.
  const auth = () => ({ authorization: settings.apiKey.reveal() });

  return {
    events: meter.events,
    submit: (request, callback) =>
      meter.call(request, {
        async send(signal) {
          const upload = await meter.fetch(`${base}/v2/upload`, {
            method: 'POST',
            headers: { ...auth(), 'content-type': 'application/octet-stream' },
            body: request.audio,
            signal,
          });
          if (!upload.ok) return upload;
          const { upload_url: audioUrl } = (await upload.json()) as { upload_url?: unknown };
          if (typeof audioUrl !== 'string') throw new Error('the provider answered the upload without an upload_url');
          return meter.fetch(`${base}/v2/transcript`, {
            method: 'POST',
            headers: { ...auth(), 'content-type': 'application/json' },
            body: JSON.stringify({
              audio_url: audioUrl,
              speech_models: [meter.model],
              speaker_labels: true,
              ...(request.language ? { language_code: request.language } : {}),
              webhook_url: callback.url,
              webhook_auth_header_name: callback.authHeaderName,
              webhook_auth_header_value: callback.authHeaderValue,
            }),
            signal,
          });
        },
        read(text) {
          const body = JSON.parse(text) as Transcript;
          if (typeof body.id !== 'string') throw new Error('the provider answered the submission without a transcript id');
          // Billed when the transcript is done, on its duration; the budget settles to what the chunk was reserved for.
          return { value: { transcriptId: body.id }, billedSeconds: Math.ceil(request.durationSeconds) };
        },
      }),
    fetch: (transcriptId, context) =>
      meter.read(
        context.jobId,
        (signal) => meter.fetch(`${base}/v2/transcript/${encodeURIComponent(transcriptId)}`, { headers: auth(), signal }),
        (text): TranscriptPoll => {
          const body = JSON.parse(text) as Transcript;
          if (body.status === 'completed') return { status: 'done', result: resultOf(body, meter.model, meter.costOfSeconds) };
          if (body.status === 'error') {
            // The provider could not transcribe these bytes (unreadable audio, no speech): the same chunk fails again.
            const reason = typeof body.error === 'string' ? body.error : 'no reason given';
            return { status: 'failed', error: new ModelRequestInvalidError(`the provider failed transcript ${transcriptId}: ${reason}`, { details: { provider: 'speech', transcriptId } }) };
          }
          return { status: 'pending' };
        },
      ),
    async deleteTranscript(transcriptId) {
      try {
        const response = await meter.fetch(`${base}/v2/transcript/${encodeURIComponent(transcriptId)}`, {
          method: 'DELETE',
          headers: auth(),
          signal: AbortSignal.timeout(settings.requestTimeoutMs),
        });
        const text = await response.text();
        if (response.ok || response.status === 404) return;
        const { message, code } = errorOfBody(text);
        throw new SpeechHttpError(response.status, response.headers, message, code);
      } catch (error) {
        const mapped = toSpeechError(error, false);
        deps.log.warn({ transcriptId, err: mapped }, 'deleting a transcript failed');
        throw mapped;
      }
    },
  };
}

function resultOf(body: Transcript, model: string, costOfSeconds: (seconds: number) => number): TranscribeResult {
  const durationSeconds = typeof body.audio_duration === 'number' ? body.audio_duration : 0;
  const billed = Math.ceil(durationSeconds);
  return {
    text: typeof body.text === 'string' ? body.text.trim() : '',
    segments: segmentsOf(body),
    ...(typeof body.language_code === 'string' ? { language: body.language_code } : {}),
    durationSeconds,
    model,
    usage: { audioSeconds: billed, costUsd: costOfSeconds(billed) },
  };
}

/** Utterances (one speaker's turn) when speaker labels came back, else the words as one segment. */
function segmentsOf(body: Transcript): TranscriptSegment[] {
  const utterances = timed(body.utterances);
  if (utterances.length > 0) return utterances;
  const words = timed(body.words);
  const first = words[0];
  const last = words[words.length - 1];
  if (!first || !last) return [];
  const confidence = words.reduce((sum, word) => sum + (word.confidence ?? 0), 0) / words.length;
  return [{ start: first.start, end: last.end, text: words.map((word) => word.text).join(' '), confidence }];
}

function timed(items: unknown): TranscriptSegment[] {
  return (Array.isArray(items) ? (items as TimedText[]) : []).flatMap((item) =>
    typeof item.start === 'number' && typeof item.end === 'number' && typeof item.text === 'string'
      ? [
          {
            start: item.start / 1000,
            end: item.end / 1000,
            text: item.text.trim(),
            ...(typeof item.speaker === 'string' ? { speaker: item.speaker } : {}),
            ...(typeof item.confidence === 'number' ? { confidence: item.confidence } : {}),
          },
        ]
      : [],
  );
}
