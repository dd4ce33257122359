/**
 * How a generated recording carries its own script: the container's `comment` tag (a WAV's INFO ICMT, an MP3's ID3
 * COMM, an Ogg or FLAC comment), written by `ffmpeg -metadata comment=…` and read back by ffprobe, as
 * `slowlane-script/1 <JSON>`. The simulator answers such audio with the script, timed, so the demo reads cleanly;
 * a person's own recording carries none and is transcribed for real.
 */
export const SCRIPT_TAG_PREFIX = 'slowlane-script/1 ';

export interface ScriptSegment {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  text: string;
  /** Who speaks, as the script names them (`A`, `B`). */
  speaker?: string;
  /**
   * 0..1, how sure the transcriber is of the line. A script may set it to have the simulator hear a line poorly (a
   * low-confidence call for review); pocketsphinx's lines carry its own (local/simulator/transcriptions/pocketsphinx.ts).
   */
  confidence?: number;
  /**
   * 0..1, how likely the transcriber thinks the line's window held no speech at all (Whisper's `no_speech_prob`). A
   * script sets it high, with a low confidence, to have the simulator answer a line as Whisper's guess over silence,
   * which the speech gateway drops (gateway/speech/speech-gateway.ts). Only the OpenAI shape reports it.
   */
  noSpeechProb?: number;
}

export function scriptTagOf(segments: readonly ScriptSegment[]): string {
  return SCRIPT_TAG_PREFIX + JSON.stringify(segments);
}

/** The script a comment tag carries, or undefined for any other comment (or a broken one). */
export function scriptOfTag(comment: string | undefined): ScriptSegment[] | undefined {
  if (!comment?.startsWith(SCRIPT_TAG_PREFIX)) return undefined;
  try {
    const parsed = JSON.parse(comment.slice(SCRIPT_TAG_PREFIX.length)) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    const segments = parsed.filter(
      (item): item is ScriptSegment =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as ScriptSegment).start === 'number' &&
        typeof (item as ScriptSegment).end === 'number' &&
        typeof (item as ScriptSegment).text === 'string' &&
        isProbability((item as ScriptSegment).confidence) &&
        isProbability((item as ScriptSegment).noSpeechProb),
    );
    return segments.length === parsed.length ? segments : undefined;
  } catch {
    return undefined;
  }
}

const isProbability = (value: unknown): boolean => value === undefined || (typeof value === 'number' && value >= 0 && value <= 1);
