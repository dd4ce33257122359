import type { DocumentRef, Usage } from '../../common/job';
import type { CallChunk, CallJobSettings, CallSummary } from '../../common/job-types/call/call-job';
import type { JobContext } from '../step-contracts';

/** Inputs and results of the call's activities: S3 keys and small JSON, never audio or a whole transcript. */

export interface SplitCallAudioInput extends JobContext {
  recording: DocumentRef;
}
export interface SplitCallAudioResult {
  durationSeconds: number;
  chunks: CallChunk[];
  /** The worker's settings the split was made with, in history so a replay sees the same. */
  settings: CallJobSettings;
  attempt: number;
}

export interface TranscribeCallChunkInput extends JobContext {
  chunk: CallChunk;
}
export interface TranscribeCallChunkResult {
  /** The chunk's transcript as the provider timed it (seconds from the chunk's start), JSON in S3. */
  transcriptKey: string;
  segments: number;
  audioSeconds: number;
  /** The provider's bill for this chunk (an earlier attempt's, when its transcript was reused). */
  usage: Usage;
  reused: boolean;
  attempt: number;
}

/** The second step of a chunk transcribed through the callback provider: the finished transcript's id to read. */
export interface StoreCallChunkTranscriptInput extends TranscribeCallChunkInput {
  transcriptId: string;
}

export interface JoinCallTranscriptInput extends JobContext {
  durationSeconds: number;
  chunks: Array<{ chunk: CallChunk; transcriptKey: string }>;
}
export interface JoinCallTranscriptResult {
  transcriptKey: string;
  vttKey: string;
  /** The transcript as the model reads it: a line per segment with its time and speaker. */
  textKey: string;
  segments: number;
  /** The call's transcription confidence (audio-time-weighted), when its segments carry one. */
  confidence?: number;
  lowConfidenceSegments: number;
  /** CALL_REVIEW_CONFIDENCE as the worker had it, in history so a replay decides review the same. */
  reviewConfidence: number;
  attempt: number;
}

export interface SummarizeCallInput extends JobContext {
  textKey: string;
}
export type SummarizeCallResult =
  | { outcome: 'valid'; summary: CallSummary; usage: Usage; attempt: number }
  | { outcome: 'invalid'; rawOutput: string; errors: string[]; usage: Usage; attempt: number };
