import { ApplicationFailure } from '@temporalio/common';
import { type ActivityDeps, modelStepDeps } from '../activity-deps';
import { createJoinCallTranscript } from './join-call-transcript';
import { createSplitCallAudio } from './split-call-audio';
import { createSummarizeCall } from './summarize-call';
import { createTranscribeCallChunk } from './transcribe-call-chunk';
import { createAwaitCallChunkTranscript, createStoreCallChunkTranscript } from './transcribe-call-chunk-by-callback';

/**
 * The `call.transcribe` activities: cut at silences, transcribe each chunk, join, summarise (workflows/call/). A
 * chunk is transcribed in one step (transcribeCallChunk), or, when the worker has the callback provider, in two
 * (awaitCallChunkTranscript, storeCallChunkTranscript): the split's settings tell the workflow which.
 */
export function createCallActivities(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'speech' | 'speechByCallback' | 'config' | 'batchLane' | 'providerFiles'>) {
  const { store, config, speechByCallback } = deps;
  const settings = {
    chunkSeconds: config.call.chunkSeconds,
    overlapSeconds: config.call.overlapSeconds,
    parallelChunks: config.call.parallelChunks,
    ...(speechByCallback ? { callback: { waitMs: config.call.callbackWaitMs } } : {}),
    maxDurationSeconds: config.call.maxDurationSeconds,
    maxUploadBytes: config.speech.maxUploadBytes,
  };
  return {
    splitCallAudio: createSplitCallAudio({ store, settings }),
    transcribeCallChunk: createTranscribeCallChunk({ store, speech: deps.speech }),
    ...callbackChunkSteps(store, speechByCallback),
    joinCallTranscript: createJoinCallTranscript({ store, reviewConfidence: config.call.reviewConfidence }),
    // The summary's model, its repair tries and the store (the transcript is read from S3 by key).
    summarizeCall: createSummarizeCall(modelStepDeps(deps, config.call.summaryModel)),
  };
}

/**
 * The two steps of a chunk with the callback provider; a worker without it (SPEECH_PROVIDER=openai) refuses them for
 * good: only a split made by a worker with SPEECH_PROVIDER=assemblyai asks for them, so the fleet's workers disagree.
 */
function callbackChunkSteps(store: ActivityDeps['store'], byCallback: ActivityDeps['speechByCallback']) {
  if (!byCallback) {
    const refuse = async (): Promise<never> => {
      throw ApplicationFailure.create({
        type: 'SpeechCallbackUnavailable',
        message: 'this worker transcribes with SPEECH_PROVIDER=openai; the chunk was split by a worker with assemblyai',
        nonRetryable: true,
      });
    };
    return {
      awaitCallChunkTranscript: refuse as ReturnType<typeof createAwaitCallChunkTranscript>,
      storeCallChunkTranscript: refuse as ReturnType<typeof createStoreCallChunkTranscript>,
    };
  }
  return { awaitCallChunkTranscript: createAwaitCallChunkTranscript({ store, byCallback }), storeCallChunkTranscript: createStoreCallChunkTranscript({ store, byCallback }) };
}

export type CallActivities = ReturnType<typeof createCallActivities>;
