/**
 * A chunk keeps no tag of the upload's (a provider gets the audio, not the customer's metadata) except a timed
 * script: the generated sample calls (local/samples/spoken-call.ts) carry theirs in the comment tag as
 * `slowlane-script/1 <JSON>`, and the local simulator answers a recording with it. Each chunk carries its own lines,
 * timed from its start, so the simulator answers a chunk with what the chunk holds.
 */
const SCRIPT_TAG_PREFIX = 'slowlane-script/1 ';

interface ScriptLine {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** The comment tag of the chunk [start, end) of a recording whose comment is `comment`; undefined: none. */
export function chunkComment(comment: string | undefined, start: number, end: number): string | undefined {
  if (!comment?.startsWith(SCRIPT_TAG_PREFIX)) return undefined;
  let lines: ScriptLine[];
  try {
    lines = JSON.parse(comment.slice(SCRIPT_TAG_PREFIX.length)) as ScriptLine[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(lines)) return undefined;
  // A line belongs to the chunk that holds its middle, as the join keeps it (common/job-types/call/transcript.ts);
  // a line cut at a pause inside it keeps its true start, before the chunk's, so the joined times stay the script's.
  const own = lines
    .filter((line) => typeof line.start === 'number' && typeof line.end === 'number' && (line.start + line.end) / 2 >= start && (line.start + line.end) / 2 < end)
    .map((line) => ({ ...line, start: round(line.start - start), end: round(line.end - start) }));
  return SCRIPT_TAG_PREFIX + JSON.stringify(own);
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
