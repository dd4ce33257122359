import { CompleteAsyncError, Context } from '@temporalio/activity';
import type { AsyncSpeechGateway, FinishedTranscript, TranscribeRequest } from '../../gateway/speech/transcription-call';
import type { SpeechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import type { SpeechCallbackStore } from '../../lib/speech/speech-callback-store';

export interface CallbackTranscriptionDeps {
  speech: AsyncSpeechGateway;
  callbacks: SpeechCallbackStore;
  signer: SpeechCallbackSigner;
  /** The API's public base (API_PUBLIC_URL): where the provider can reach `POST /callbacks/speech/{id}`. */
  publicUrl: string;
}

export interface CallbackTranscribeRequest extends TranscribeRequest {
  /** Required here: the job's callback records are kept under its tenant (lib/speech/speech-callback-store.ts). */
  tenantId: string;
  /** Deterministic per chunk (the job and the chunk's index): a retried attempt finds the chunk's submission by it. */
  submissionKey: string;
}

/**
 * Transcribes a chunk with a provider that calls back, without holding a worker slot while it works: submits with a
 * signed single-use callback URL whose id stands for this attempt's task token, then hands the slot back
 * (CompleteAsyncError); the API's callback route completes the activity with the transcript's id, never the transcript
 * (a later step reads it by id). An attempt that finds the chunk already submitted (the previous one timed out: its
 * callback was late or lost) polls it instead of paying twice: a finished transcript's id is returned at once, an
 * unfinished one is re-armed with this attempt's token and waited for again, a failed one is submitted again.
 */
export async function transcribeAwaitingCallback(deps: CallbackTranscriptionDeps, request: CallbackTranscribeRequest): Promise<FinishedTranscript> {
  const taskToken = Buffer.from(Context.current().info.taskToken).toString('base64');
  const job = { tenantId: request.tenantId, jobId: request.jobId };
  const earlier = await deps.callbacks.submission(job, request.submissionKey);
  if (earlier) {
    const poll = await deps.speech.fetch(earlier.transcriptId, { jobId: request.jobId });
    if (poll.status === 'done') return { transcriptId: earlier.transcriptId };
    if (poll.status === 'pending') {
      await deps.callbacks.arm(earlier.callbackId, { taskToken, ...job });
      throw new CompleteAsyncError();
    }
    // The provider gave up on it: this attempt, an operator's retry after the
    // job parked on it, submits again rather than reading the same failure for ever.
    await deps.callbacks.forgetSubmission(job, request.submissionKey);
  }
  const callback = deps.signer.create(deps.publicUrl);
  // Armed before the provider knows the URL: a callback can come back before this attempt has returned.
  await deps.callbacks.arm(callback.id, { taskToken, ...job });
  const { transcriptId } = await deps.speech.submit(request, callback);
  await deps.callbacks.recordSubmission(job, request.submissionKey, { transcriptId, callbackId: callback.id });
  throw new CompleteAsyncError();
}
