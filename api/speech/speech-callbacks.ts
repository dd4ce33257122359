import { ActivityNotFoundError, type Client } from '@temporalio/client';
import type { AsyncSpeechGateway, FinishedTranscript } from '../../gateway/speech/transcription-call';
import { toApplicationFailure } from '../../lib/failures';
import type { Logger } from '../../lib/logger';
import type { SpeechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import type { SpeechCallbackStore } from '../../lib/speech/speech-callback-store';
import { ApiError } from '../api-error';

export interface SpeechCallbackDeps {
  client: Pick<Client, 'activity'>;
  speech: Pick<AsyncSpeechGateway, 'fetch'>;
  callbacks: SpeechCallbackStore;
  signer: SpeechCallbackSigner;
  log: Logger;
}

export interface SpeechCallbackDelivery {
  id: string;
  sig: string;
  authHeader: string;
  body: unknown;
}

/**
 * `completed` and `failed`: the waiting activity took the transcript's id or its error; `duplicate`: this armed callback was
 * used already; `stale`: the attempt it stood for is over (timed out; the next attempt polls). Every outcome is a 2xx,
 * because the provider retries anything else.
 */
export type SpeechCallbackOutcome = 'completed' | 'failed' | 'duplicate' | 'stale';

/**
 * The provider says a transcript is done: check the URL's signature and the auth header, read the transcript (is it
 * really done?), use the callback once, and complete the activity attempt its id stands for with the transcript's id
 * (FinishedTranscript: the history keeps the id, not the transcript), or fail it with the provider's error.
 */
export async function receiveSpeechCallback(deps: SpeechCallbackDeps, delivery: SpeechCallbackDelivery): Promise<SpeechCallbackOutcome> {
  const { id } = delivery;
  if (!deps.signer.verifyUrl(id, delivery.sig)) throw new ApiError(403, 'forbidden', 'the callback URL is not one we signed');
  if (!deps.signer.verifyAuthHeader(id, delivery.authHeader)) throw new ApiError(401, 'unauthorized', 'the callback lacks its auth header');
  const transcriptId = (delivery.body as { transcript_id?: unknown } | undefined)?.transcript_id;
  if (typeof transcriptId !== 'string' || transcriptId === '') {
    throw new ApiError(400, 'invalid_request', 'the body must carry the "transcript_id" of the finished transcript');
  }
  const armed = await deps.callbacks.armed(id);
  if (!armed) throw new ApiError(404, 'not_found', `no callback ${id} is waiting`);
  const poll = await deps.speech.fetch(transcriptId, { jobId: armed.jobId });
  // Told it is done but it is not yet: a 503 makes the provider deliver again (a 4xx would stop it).
  if (poll.status === 'pending') throw new ApiError(503, 'not_finished', `transcript ${transcriptId} is not finished yet`, { retryAfterSeconds: 5 });
  if (!(await deps.callbacks.claim(id, armed))) return 'duplicate';
  const taskToken = Buffer.from(armed.taskToken, 'base64');
  try {
    if (poll.status === 'done') {
      const finished: FinishedTranscript = { transcriptId };
      await deps.client.activity.complete(taskToken, finished);
    }
    else await deps.client.activity.fail(taskToken, toApplicationFailure(poll.error, 1));
  } catch (error) {
    if (!(error instanceof ActivityNotFoundError)) throw error;
    deps.log.info({ jobId: armed.jobId, callbackId: id }, 'speech callback for an attempt that is over; the next attempt polls');
    return 'stale';
  }
  return poll.status === 'done' ? 'completed' : 'failed';
}
