import { scriptOfTag, scriptTagOf } from '../../common/job-types/call/script-tag';

/**
 * A chunk keeps no tag of the upload's (a provider gets the audio, not the customer's metadata) except a timed
 * script: the generated sample calls carry theirs in the comment tag (common/job-types/call/script-tag.ts), and the
 * local simulator answers a recording with it. Each chunk carries its own lines, timed from its start, so the
 * simulator answers a chunk with what the chunk holds.
 */
export function chunkComment(comment: string | undefined, start: number, end: number): string | undefined {
  const lines = scriptOfTag(comment);
  if (!lines) return undefined;
  // A line belongs to the chunk that holds its middle, as the join keeps it (common/job-types/call/transcript.ts);
  // a line cut at a pause inside it keeps its true start, before the chunk's, so the joined times stay the script's.
  const own = lines
    .filter((line) => (line.start + line.end) / 2 >= start && (line.start + line.end) / 2 < end)
    .map((line) => ({ ...line, start: round(line.start - start), end: round(line.end - start) }));
  return scriptTagOf(own);
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
