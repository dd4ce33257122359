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
        typeof (item as ScriptSegment).text === 'string',
    );
    return segments.length === parsed.length ? segments : undefined;
  } catch {
    return undefined;
  }
}
