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

/** How well a call was heard: what the join reports and the workflow decides review by. */
export interface TranscriptConfidence {
  /** The audio-time-weighted mean of the segments that carry a confidence; absent when none does. */
  confidence?: number;
  /** Segments whose confidence is below `reviewConfidence`. */
  lowConfidenceSegments: number;
}

/**
 * The call's confidence weighted by audio time, so a long mumbled answer counts for more than a clear "yes";
 * segments without a confidence (a provider that gives none) neither raise nor lower it.
 */
export function transcriptConfidence(segments: readonly CallSegment[], reviewConfidence: number): TranscriptConfidence {
  const rated = segments.filter((segment): segment is CallSegment & { confidence: number } => segment.confidence !== undefined);
  const lowConfidenceSegments = rated.filter((segment) => segment.confidence < reviewConfidence).length;
  if (rated.length === 0) return { lowConfidenceSegments };
  const seconds = rated.reduce((sum, segment) => sum + Math.max(0, segment.end - segment.start), 0);
  // Segments all of zero length (a provider's point marks) still say how sure it was: then each counts once.
  const weight = (segment: CallSegment): number => (seconds > 0 ? Math.max(0, segment.end - segment.start) : 1);
  const total = seconds > 0 ? seconds : rated.length;
  const confidence = rated.reduce((sum, segment) => sum + segment.confidence * weight(segment), 0) / total;
  return { confidence: Math.round(confidence * 1000) / 1000, lowConfidenceSegments };
}

/**
 * Why a call goes to a person for how it was heard ("transcription confidence 0.41 below 0.60"), or undefined
 * when it was heard well enough or carries no confidence at all.
 */
export function lowConfidenceReason(heard: { confidence?: number; reviewConfidence?: number }): string | undefined {
  const { confidence, reviewConfidence } = heard;
  if (confidence === undefined || reviewConfidence === undefined || confidence >= reviewConfidence) return undefined;
  return `transcription confidence ${confidence.toFixed(2)} below ${reviewConfidence.toFixed(2)}`;
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
