import { Context } from '@temporalio/activity';
import type { CallActivities } from '../../activities/call';
import { ModelRequestInvalidError } from '../../common/errors';
import type { Usage } from '../../common/job';
import type { CallChunk, CallSummary } from '../../common/job-types/call/call-job';

/** A chunk's transcription: a minute of audio at whisper-1's price. */
export const chunkUsage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0.006, calls: 1 };
export const summaryUsage: Usage = { inputTokens: 900, outputTokens: 120, costUsd: 0.0015, calls: 1 };
export const CHUNK_SECONDS = 60;

export const sampleCallSummary: CallSummary = {
  summary: 'The caller moved a delivery to Friday; the agent will resend the invoice.',
  actionItems: [{ text: 'Send the invoice again by email', owner: 'A' }],
  outcome: 'follow_up',
};

export interface FakeCallOptions {
  chunks: number;
  /** Chunks that fail for good (non-retryable) on their first `n` runs. */
  failing?: Map<number, number>;
  /** The model's summary fails its schema (after the repair loop): the job goes to review. */
  invalidSummary?: boolean;
  /** The worker's provider calls back (SPEECH_PROVIDER=assemblyai): each chunk is awaited, then its transcript stored. */
  byCallback?: boolean;
  /** The joined transcript's confidence (none when absent); below REVIEW_CONFIDENCE the call goes to review. */
  confidence?: number;
}

/** CALL_REVIEW_CONFIDENCE as the fake join reports it. */
export const REVIEW_CONFIDENCE = 0.6;

/** In-memory call steps: a call of `chunks` one-minute chunks, transcriptions counted per chunk. */
export function fakeCallActivities(options: FakeCallOptions) {
  const chunkRuns = new Map<number, number>();
  const failing = new Map(options.failing ?? []);
  const chunks: CallChunk[] = Array.from({ length: options.chunks }, (_, index) => ({
    index,
    key: `calls/test/fake/chunks/${index}.flac`,
    start: Math.max(0, index * CHUNK_SECONDS - 2),
    end: Math.min(options.chunks * CHUNK_SECONDS, (index + 1) * CHUNK_SECONDS + 2),
    ownStart: index * CHUNK_SECONDS,
    ownEnd: (index + 1) * CHUNK_SECONDS,
  }));
  /** How often the callback path awaited each chunk, by index. */
  const awaited = new Map<number, number>();
  const transcribed = (chunk: CallChunk) => {
    chunkRuns.set(chunk.index, (chunkRuns.get(chunk.index) ?? 0) + 1);
    const failuresLeft = failing.get(chunk.index) ?? 0;
    if (failuresLeft > 0) {
      failing.set(chunk.index, failuresLeft - 1);
      throw new ModelRequestInvalidError(`chunk ${chunk.index} is not audio the provider can read`);
    }
    return {
      transcriptKey: `${chunk.key}.transcript.json`,
      segments: 4,
      audioSeconds: chunk.end - chunk.start,
      usage: chunkUsage,
      reused: false,
      attempt: Context.current().info.attempt,
    };
  };
  const activities: CallActivities = {
    async splitCallAudio() {
      return {
        durationSeconds: options.chunks * CHUNK_SECONDS,
        chunks,
        settings: { chunkSeconds: CHUNK_SECONDS, overlapSeconds: 2, parallelChunks: 2, ...(options.byCallback ? { callback: { waitMs: 60_000 } } : {}) },
        attempt: Context.current().info.attempt,
      };
    },
    transcribeCallChunk: async ({ chunk }) => transcribed(chunk),
    async awaitCallChunkTranscript({ chunk }) {
      awaited.set(chunk.index, (awaited.get(chunk.index) ?? 0) + 1);
      return { transcriptId: `transcript-${chunk.index}` };
    },
    storeCallChunkTranscript: async ({ chunk, transcriptId }) => {
      if (transcriptId !== `transcript-${chunk.index}`) throw new ModelRequestInvalidError(`chunk ${chunk.index} was given ${transcriptId}`);
      return transcribed(chunk);
    },
    async joinCallTranscript({ chunks: joined }) {
      return {
        transcriptKey: 'calls/test/fake/transcript.json',
        vttKey: 'calls/test/fake/transcript.vtt',
        textKey: 'calls/test/fake/transcript.txt',
        segments: joined.length * 4,
        ...(options.confidence !== undefined ? { confidence: options.confidence } : {}),
        // Of each chunk's four segments, one heard poorly when the call was.
        lowConfidenceSegments: options.confidence !== undefined && options.confidence < REVIEW_CONFIDENCE ? joined.length : 0,
        reviewConfidence: REVIEW_CONFIDENCE,
        attempt: Context.current().info.attempt,
      };
    },
    async summarizeCall() {
      const attempt = Context.current().info.attempt;
      if (options.invalidSummary) return { outcome: 'invalid', rawOutput: '{"summary":""}', errors: ['/summary must NOT have fewer than 1 characters'], usage: summaryUsage, attempt };
      return { outcome: 'valid', summary: sampleCallSummary, usage: summaryUsage, attempt };
    },
  };
  return { activities, chunkRuns, awaited };
}
