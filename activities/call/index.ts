import { type ActivityDeps, modelStepDeps } from '../activity-deps';
import { createJoinCallTranscript } from './join-call-transcript';
import { createSplitCallAudio } from './split-call-audio';
import { createSummarizeCall } from './summarize-call';
import { createTranscribeCallChunk } from './transcribe-call-chunk';

/** The `call.transcribe` activities: cut at silences, transcribe each chunk, join, summarise (workflows/call/). */
export function createCallActivities(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'speech' | 'config' | 'batchLane' | 'providerFiles'>) {
  const { store, config } = deps;
  const settings = {
    chunkSeconds: config.call.chunkSeconds,
    overlapSeconds: config.call.overlapSeconds,
    parallelChunks: config.call.parallelChunks,
    maxDurationSeconds: config.call.maxDurationSeconds,
    maxUploadBytes: config.speech.maxUploadBytes,
  };
  return {
    splitCallAudio: createSplitCallAudio({ store, settings }),
    transcribeCallChunk: createTranscribeCallChunk({ store, speech: deps.speech }),
    joinCallTranscript: createJoinCallTranscript({ store, reviewConfidence: config.call.reviewConfidence }),
    // The summary's model, its repair tries and the store (the transcript is read from S3 by key).
    summarizeCall: createSummarizeCall(modelStepDeps(deps, config.call.summaryModel)),
  };
}

export type CallActivities = ReturnType<typeof createCallActivities>;
