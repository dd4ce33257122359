import type { HttpReply } from '../http-reply';
import type { ScriptSegment } from '../../../common/job-types/call/script-tag';
import type { ResponseFormat } from './transcription-request';

/**
 * The answer in the requested format, in the shapes OpenAI documents: `json` {text, usage}, `verbose_json` {task,
 * language, duration, text, segments[, words], usage}, and `text`, `srt`, `vtt` as plain text.
 */
export function transcriptionAnswer(
  format: ResponseFormat,
  segments: readonly ScriptSegment[],
  durationSeconds: number,
  options: { language: string; words: boolean },
): HttpReply {
  const text = segments.map((segment) => segment.text.trim()).join(' ');
  const usage = { type: 'duration', seconds: Math.ceil(durationSeconds) };
  switch (format) {
    case 'json':
      return { status: 200, headers: {}, body: { text, usage } };
    case 'verbose_json':
      return {
        status: 200,
        headers: {},
        body: {
          task: 'transcribe',
          language: options.language,
          duration: round(durationSeconds),
          text,
          segments: segments.map((segment, id) => ({
            id,
            seek: 0,
            start: round(segment.start),
            end: round(segment.end),
            text: ` ${segment.text.trim()}`,
            tokens: [],
            temperature: 0,
            // As the real API: the mean log-probability of the line's tokens (the gateway reads exp() of it).
            avg_logprob: round4(Math.log(Math.max(MIN_CONFIDENCE, segment.confidence ?? SCRIPTED_LINE_CONFIDENCE))),
            compression_ratio: 1,
            // 0 unless the script marks the line as heard over silence (ScriptSegment.noSpeechProb).
            no_speech_prob: segment.noSpeechProb ?? 0,
          })),
          ...(options.words ? { words: segments.flatMap(wordsOf) } : {}),
          usage,
        },
      };
    case 'text':
      return plain('text/plain; charset=utf-8', `${text}\n`);
    case 'srt':
      return plain(
        'text/plain; charset=utf-8',
        segments.map((segment, index) => `${index + 1}\n${stamp(segment.start, ',')} --> ${stamp(segment.end, ',')}\n${segment.text.trim()}\n`).join('\n'),
      );
    case 'vtt':
      return plain(
        'text/vtt; charset=utf-8',
        `WEBVTT\n\n${segments.map((segment) => `${stamp(segment.start, '.')} --> ${stamp(segment.end, '.')}\n${segment.text.trim()}\n`).join('\n')}`,
      );
  }
}

function plain(contentType: string, text: string): HttpReply {
  return { status: 200, headers: {}, body: undefined, raw: { contentType, text } };
}

/** Words spread evenly over their segment: the script knows its lines' times, not each word's. */
function wordsOf(segment: ScriptSegment): Array<{ word: string; start: number; end: number }> {
  const words = segment.text.trim().split(/\s+/).filter(Boolean);
  const step = (segment.end - segment.start) / Math.max(1, words.length);
  return words.map((word, index) => ({ word, start: round(segment.start + index * step), end: round(segment.start + (index + 1) * step) }));
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** A scripted line that names no confidence is heard as well as a clear recording is (exp(avg_logprob) ≈ 0.95). */
export const SCRIPTED_LINE_CONFIDENCE = 0.95;
/** log(0) is -Infinity, which JSON cannot carry: a line heard not at all is heard at 0.001. */
const MIN_CONFIDENCE = 0.001;

function stamp(seconds: number, decimal: '.' | ','): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${decimal}${pad(ms % 1000, 3)}`;
}
