import { proxyActivities } from '@temporalio/workflow';
import type { TranscribeResult } from '../../gateway/speech/transcription-call';

/** The test's one activity: a chunk transcribed through the callback path (test/integration/speech-callbacks.test.ts). */
export interface SpeechCallbackTestActivities {
  transcribeTestChunk(input: { jobId: string; submissionKey: string }): Promise<TranscribeResult>;
}

const { transcribeTestChunk } = proxyActivities<SpeechCallbackTestActivities>({
  // Short, so a lost callback reaches the poll fallback within the test: the next attempt polls.
  startToCloseTimeout: '6s',
  retry: { initialInterval: '200ms', backoffCoefficient: 1, maximumAttempts: 5 },
});

/** A test-only workflow: transcribes one chunk and returns the transcript. */
export async function speechCallbackTestWorkflow(input: { jobId: string; submissionKey: string }): Promise<TranscribeResult> {
  return transcribeTestChunk(input);
}
