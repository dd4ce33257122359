import type { CallChunk } from './call-job';

/** One timed line of a call's transcript, in seconds from the call's start. */
export interface CallSegment {
  start: number;
  end: number;
  text: string;
  /** Who speaks, when the provider tells speakers apart. */
  speaker?: string;
  /** 0..1, the provider's confidence in the line, when it gives one. */
  confidence?: number;
}

export interface CallTranscript {
  durationSeconds: number;
  text: string;
  segments: CallSegment[];
}

/** A chunk's transcript as the provider timed it: seconds from the chunk's own start. */
export interface ChunkTranscript {
  chunk: Pick<CallChunk, 'index' | 'start' | 'ownStart' | 'ownEnd'>;
  segments: CallSegment[];
}

/**
 * One transcript from the chunks': each segment moved by its chunk's start, and kept only by the chunk whose own
 * span holds the segment's middle, so a line heard in the overlap of two chunks appears once.
 */
export function joinChunkTranscripts(durationSeconds: number, chunks: readonly ChunkTranscript[]): CallTranscript {
  const segments = [...chunks]
    .sort((a, b) => a.chunk.index - b.chunk.index)
    .flatMap(({ chunk, segments }, position, all) =>
      segments
        .map((segment) => ({ ...segment, start: round(segment.start + chunk.start), end: round(segment.end + chunk.start) }))
        .filter((segment) => {
          const middle = (segment.start + segment.end) / 2;
          // The last chunk keeps everything to its end (a segment may run a little past the measured duration).
          const last = position === all.length - 1;
          return middle >= chunk.ownStart && (last || middle < chunk.ownEnd);
        }),
    )
    .filter((segment) => segment.text.trim() !== '');
  return { durationSeconds, text: segments.map((segment) => segment.text).join(' '), segments };
}

/** The transcript as WebVTT: one cue per segment, the speaker as a voice tag when known. */
export function toWebVtt(transcript: CallTranscript): string {
  const cues = transcript.segments.map(
    (segment) => `${vttTime(segment.start)} --> ${vttTime(segment.end)}\n${segment.speaker ? `<v ${segment.speaker}>` : ''}${escapeVtt(segment.text)}`,
  );
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** The transcript as the model reads it: a line per segment, with its time and speaker. */
export function transcriptText(transcript: CallTranscript): string {
  return transcript.segments.map((segment) => `[${clock(segment.start)}]${segment.speaker ? ` ${segment.speaker}:` : ''} ${segment.text}`).join('\n');
}

function vttTime(seconds: number): string {
  const millis = Math.round(seconds * 1000);
  const hours = Math.floor(millis / 3_600_000);
  const minutes = Math.floor((millis % 3_600_000) / 60_000);
  const secs = Math.floor((millis % 60_000) / 1000);
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}.${String(millis % 1000).padStart(3, '0')}`;
}

function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
}

// A cue's text may not hold "-->" and treats < and & as markup.
const escapeVtt = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/-->/g, '->');
const pad = (value: number): string => String(value).padStart(2, '0');
const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
