import type { CallJobSettings } from '../../common/job-types/call/call-job';
import type { SpeechGateway } from '../../gateway/speech/transcription-call';
import type { ModelStepDeps } from '../call-model-on-text';
import { createJoinCallTranscript } from './join-call-transcript';
import { createSplitCallAudio } from './split-call-audio';
import { createSummarizeCall } from './summarize-call';
import { createTranscribeCallChunk } from './transcribe-call-chunk';

export interface CallActivityDeps {
  /** The summary's model, its repair tries and the store (the transcript is read from S3 by key). */
  model: ModelStepDeps;
  speech: SpeechGateway;
  settings: CallJobSettings & { maxDurationSeconds: number; maxUploadBytes: number };
}

/** The `call.transcribe` activities: cut at silences, transcribe each chunk, join, summarise (workflows/call/). */
export function createCallActivities(deps: CallActivityDeps) {
  const store = deps.model.store;
  return {
    splitCallAudio: createSplitCallAudio({ store, settings: deps.settings }),
    transcribeCallChunk: createTranscribeCallChunk({ store, speech: deps.speech }),
    joinCallTranscript: createJoinCallTranscript({ store }),
    summarizeCall: createSummarizeCall(deps.model),
  };
}

export type CallActivities = ReturnType<typeof createCallActivities>;
