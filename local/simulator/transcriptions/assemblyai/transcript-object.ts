import type { ScriptSegment } from '../../../../common/job-types/call/script-tag';

/** How sure the engine is: a recording's own script is what was said; pocketsphinx on synthetic voices is rough. */
const CONFIDENCE = { script: 0.95, pocketsphinx: 0.6 };

/**
 * The finished fields of AssemblyAI's transcript object: `text`, `words` and (with speaker labels) `utterances`, with
 * times in milliseconds, a speaker letter and a confidence each, and `audio_duration` in whole seconds.
 */
export function finishedTranscript(segments: readonly ScriptSegment[], durationSeconds: number, options: { fromScript: boolean; speakerLabels: boolean }) {
  const confidence = options.fromScript ? CONFIDENCE.script : CONFIDENCE.pocketsphinx;
  const speakerOf = (segment: ScriptSegment) => (options.speakerLabels ? (segment.speaker ?? 'A') : null);
  const utterances = segments.map((segment) => {
    const words = wordsOf(segment, confidence, speakerOf(segment));
    return { speaker: speakerOf(segment), text: segment.text.trim(), start: ms(segment.start), end: ms(segment.end), confidence, words };
  });
  return {
    text: segments.map((segment) => segment.text.trim()).join(' '),
    words: utterances.flatMap((utterance) => utterance.words),
    utterances: options.speakerLabels ? utterances : null,
    confidence,
    audio_duration: Math.round(durationSeconds),
  };
}

/** Words spread evenly over their segment: the script knows its lines' times, not each word's. */
function wordsOf(segment: ScriptSegment, confidence: number, speaker: string | null) {
  const words = segment.text.trim().split(/\s+/).filter(Boolean);
  const step = (segment.end - segment.start) / Math.max(1, words.length);
  return words.map((text, index) => ({ text, start: ms(segment.start + index * step), end: ms(segment.start + (index + 1) * step), confidence, speaker }));
}

const ms = (seconds: number) => Math.round(seconds * 1000);
