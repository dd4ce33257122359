import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../../common/errors';
import type { FinishedTranscript } from '../../gateway/speech/transcription-call';
import type { ObjectStore } from '../../lib/object-store';
import { type CallbackTranscriptionDeps, transcribeAwaitingCallback } from '../speech/transcribe-with-callback';
import type { StoreCallChunkTranscriptInput, TranscribeCallChunkInput, TranscribeCallChunkResult } from './contracts';
import { chunkTranscribeRequest, reusedChunkTranscript, storeChunkTranscript } from './transcribe-call-chunk';

export interface CallbackChunkDeps {
  store: ObjectStore;
  byCallback: CallbackTranscriptionDeps;
}

/** One submission per chunk of a job: a retried attempt (a lost callback, a killed worker) finds it and polls. */
export const chunkSubmissionKey = (input: TranscribeCallChunkInput): string => `${input.jobId}/chunk-${String(input.chunk.index).padStart(4, '0')}`;

/**
 * The first of a chunk's two steps with the callback provider: submits the chunk's audio and hands the worker slot
 * back until the provider calls back (transcribeAwaitingCallback). It completes with the transcript's id only, so the
 * history holds no transcript; storeCallChunkTranscript reads it.
 */
export function createAwaitCallChunkTranscript(deps: CallbackChunkDeps) {
  return async function awaitCallChunkTranscript(input: TranscribeCallChunkInput): Promise<FinishedTranscript> {
    const request = await chunkTranscribeRequest(deps.store, input);
    return transcribeAwaitingCallback(deps.byCallback, { ...request, tenantId: input.tenantId, submissionKey: chunkSubmissionKey(input) });
  };
}

/**
 * The second step: reads the finished transcript by id (a poll, outside the budget: the submission was billed) and
 * stores it exactly as the synchronous step does, so join and summary do not know which provider answered. A
 * transcript already stored (an attempt whose result was lost) is reused without asking the provider.
 */
export function createStoreCallChunkTranscript(deps: CallbackChunkDeps) {
  return async function storeCallChunkTranscript(input: StoreCallChunkTranscriptInput): Promise<TranscribeCallChunkResult> {
    const { attempt } = Context.current().info;
    const reused = await reusedChunkTranscript(deps.store, input.chunk, attempt);
    if (reused) return reused;
    const poll = await deps.byCallback.speech.fetch(input.transcriptId, { jobId: input.jobId });
    if (poll.status === 'failed') {
      // The chunk fails (the job parks naming it); an operator's retry then submits the chunk anew.
      await deps.byCallback.callbacks.forgetSubmission({ tenantId: input.tenantId, jobId: input.jobId }, chunkSubmissionKey(input));
      throw poll.error;
    }
    if (poll.status === 'pending') {
      // The callback or a poll said it was done; a provider that answers otherwise now is lagging: ask again.
      throw new ModelUnavailableError(`transcript ${input.transcriptId} is not finished yet`, { details: { provider: 'speech', transcriptId: input.transcriptId } });
    }
    return storeChunkTranscript(deps.store, input.chunk, poll.result, attempt);
  };
}
