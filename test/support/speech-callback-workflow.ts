import { proxyActivities } from '@temporalio/workflow';
import type { FinishedTranscript, TranscribeResult } from '../../gateway/speech/transcription-call';

/**
 * The test's two activities (test/integration/speech-callbacks.test.ts): a chunk transcribed through the callback
 * path, which completes with the transcript's id only, then the transcript read by that id.
 */
export interface SpeechCallbackTestActivities {
  transcribeTestChunk(input: { jobId: string; submissionKey: string }): Promise<FinishedTranscript>;
  readTestTranscript(input: { jobId: string; transcriptId: string }): Promise<TranscribeResult>;
}

const { transcribeTestChunk, readTestTranscript } = proxyActivities<SpeechCallbackTestActivities>({
  // Short, so a lost callback reaches the poll fallback within the test: the next attempt polls.
  startToCloseTimeout: '6s',
  retry: { initialInterval: '200ms', backoffCoefficient: 1, maximumAttempts: 5 },
});

/** A test-only workflow: transcribes one chunk and returns the transcript. */
export async function speechCallbackTestWorkflow(input: { jobId: string; submissionKey: string }): Promise<TranscribeResult> {
  const { transcriptId } = await transcribeTestChunk(input);
  return readTestTranscript({ jobId: input.jobId, transcriptId });
}
