import { extname } from 'node:path';
import type { GatewayEvents } from '../gateway-events';
import { createSpeechMeter, type SpeechGatewayDeps } from './speech-meter';
import type { SpeechGateway, TranscribeRequest, TranscribeResult, TranscriptSegment } from './transcription-call';

export type { SpeechGatewayDeps, SpeechSettings } from './speech-meter';

/** The speech door as the worker wires it, with its own events: its budget counts audio seconds, not tokens. */
export interface WiredSpeechGateway extends SpeechGateway {
  readonly events: GatewayEvents;
}

const CONTENT_TYPES: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.mp4': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.flac': 'audio/flac',
  '.webm': 'audio/webm',
};

interface VerboseSegment {
  start?: unknown;
  end?: unknown;
  text?: unknown;
  avg_logprob?: unknown;
  no_speech_prob?: unknown;
}

interface VerboseTranscription {
  text?: unknown;
  language?: unknown;
  duration?: unknown;
  segments?: VerboseSegment[];
  usage?: { type?: unknown; seconds?: unknown };
}

/**
 * OpenAI's `POST /v1/audio/transcriptions` (multipart, `verbose_json` with segment timestamps) behind the speech meter
 * (speech-meter.ts): its budget, concurrency, Retry-After, typed errors and price per audio minute.
 */
export function createSpeechGateway(deps: SpeechGatewayDeps): WiredSpeechGateway {
  const { settings } = deps;
  const meter = createSpeechMeter(deps);
  const model = meter.model;
  return {
    events: meter.events,
    transcribe: (request) =>
      meter.call(request, {
        send: (signal) =>
          meter.fetch(`${settings.baseURL.replace(/\/$/, '')}/v1/audio/transcriptions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${settings.apiKey.reveal()}` },
            body: formOf(request, model),
            signal,
          }),
        read(text) {
          const body = JSON.parse(text) as VerboseTranscription;
          const durationSeconds = typeof body.duration === 'number' ? body.duration : request.durationSeconds;
          const billed = typeof body.usage?.seconds === 'number' ? body.usage.seconds : Math.ceil(durationSeconds);
          const { segments, droppedSilence } = segmentsOf(body);
          const value: TranscribeResult = {
            // The provider's text holds the silence guesses too: without them it is the kept segments' text.
            text: droppedSilence ? segments.map((segment) => segment.text).join(' ') : typeof body.text === 'string' ? body.text.trim() : '',
            segments,
            ...(typeof body.language === 'string' ? { language: body.language } : {}),
            durationSeconds,
            model,
            usage: { audioSeconds: billed, costUsd: meter.costOfSeconds(billed) },
          };
          return { value, billedSeconds: billed };
        },
      }),
  };
}

function formOf(request: TranscribeRequest, model: string): FormData {
  const form = new FormData();
  const type = CONTENT_TYPES[extname(request.filename).toLowerCase()] ?? 'application/octet-stream';
  form.append('file', new Blob([request.audio], { type }), request.filename);
  form.append('model', model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  if (request.language) form.append('language', request.language);
  if (request.prompt) form.append('prompt', request.prompt);
  return form;
}

/** The segments with the silence guesses dropped (their audio is still billed: `usage` is read apart). */
function segmentsOf(body: VerboseTranscription): { segments: TranscriptSegment[]; droppedSilence: boolean } {
  let droppedSilence = false;
  const segments = (Array.isArray(body.segments) ? body.segments : []).flatMap((segment) => {
    if (typeof segment.start !== 'number' || typeof segment.end !== 'number' || typeof segment.text !== 'string') return [];
    if (isSilenceGuess(segment)) {
      droppedSilence = true;
      return [];
    }
    const confidence = confidenceOfLogprob(segment.avg_logprob);
    return [{ start: segment.start, end: segment.end, text: segment.text.trim(), ...(confidence !== undefined ? { confidence } : {}) }];
  });
  return { segments, droppedSilence };
}

/**
 * Whisper's own defaults for "this window was silence" (openai/whisper, transcribe.py: `no_speech_threshold=0.6`,
 * `logprob_threshold=-1.0`). Named constants, not settings: they are the model's documented heuristic, and no
 * deployment has had a reason to move them.
 */
export const WHISPER_NO_SPEECH_THRESHOLD = 0.6;
export const WHISPER_LOGPROB_THRESHOLD = -1.0;

/**
 * A segment Whisper itself would skip as silence: it thinks there was no speech (`no_speech_prob` above 0.6) AND it
 * was unsure of the words it produced (`avg_logprob` not above -1). Either alone is not enough, as in transcribe.py,
 * whose check is exactly this (a segment with avg_logprob > -1 is kept "despite the no_speech_prob"). Those words
 * are the model's guess over silence (the classic "Thank you." at the end of a recording), not what was said.
 */
export function isSilenceGuess(segment: { no_speech_prob?: unknown; avg_logprob?: unknown }): boolean {
  const { no_speech_prob: noSpeech, avg_logprob: logprob } = segment;
  return typeof noSpeech === 'number' && typeof logprob === 'number' && noSpeech > WHISPER_NO_SPEECH_THRESHOLD && !(logprob > WHISPER_LOGPROB_THRESHOLD);
}

/**
 * A segment's confidence from its `avg_logprob` (the mean log-probability of its tokens): exp() of it is the
 * geometric mean of the tokens' probabilities, a 0..1 figure that falls as the model guesses. Clamped because the
 * field is a float the provider computes (a rounding may land a hair above 0); absent or not finite, no confidence.
 */
export function confidenceOfLogprob(avgLogprob: unknown): number | undefined {
  if (typeof avgLogprob !== 'number' || !Number.isFinite(avgLogprob)) return undefined;
  return Math.min(1, Math.max(0, Math.exp(avgLogprob)));
}
