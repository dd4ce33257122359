import type { DocumentRef, JobStart, JobState } from '../../job';
import type { CallSummary } from './call-summary';
import type { CallResult } from './definition';

export type { CallResult, CallSummary };

/**
 * How a call is cut and transcribed: the worker's CALL_* settings, which splitCallAudio returns so they are in
 * history and a replay sees the same.
 */
export interface CallJobSettings {
  chunkSeconds: number;
  overlapSeconds: number;
  parallelChunks: number;
  /**
   * Present when the worker's speech provider calls back (SPEECH_PROVIDER=assemblyai): each chunk is submitted and
   * waited for (at most `waitMs` per attempt, then polled), and its transcript read and stored by a second step.
   * Absent, a chunk is transcribed in one step (OpenAI's shape), as every earlier history did.
   */
  callback?: { waitMs: number };
}

/** What the API starts a call job with: the common start and the uploaded recording. */
export interface CallJobInput extends JobStart {
  document: DocumentRef;
}

/** One chunk of a call: the audio it holds (with overlap) and the part of the call it answers for (without). */
export interface CallChunk {
  index: number;
  key: string;
  /** Seconds from the call's start: the chunk's audio, overlap included. */
  start: number;
  end: number;
  /** The span whose words this chunk's transcript supplies; neighbours' spans meet without overlap. */
  ownStart: number;
  ownEnd: number;
}

/**
 * The joined transcript as the job knows it before its result: where it is (GET /jobs/:id/transcript reads it while
 * the call awaits review) and how well it was heard. The counts are absent in histories joined before they were.
 */
export interface CallTranscriptState {
  key: string;
  confidence?: number;
  lowConfidenceSegments?: number;
  /** Segments below it are the ones the reviewer page marks. */
  reviewConfidence?: number;
}

/** The status query's answer for a call job: the common state, the joined transcript, and its result once it has one. */
export type CallJobState = JobState & { result?: CallResult; proposal?: CallSummary; transcript?: CallTranscriptState };
