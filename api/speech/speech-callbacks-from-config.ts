import type { Client } from '@temporalio/client';
import { createAssemblyAiSpeechGateway } from '../../gateway/speech/assemblyai-speech-gateway';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { ObjectStore } from '../../lib/object-store';
import type { SpeechTranscriptRemover } from '../../lib/speech/job-speech-records';
import { speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { speechCallbackStore } from '../../lib/speech/speech-callback-store';
import type { SpeechCallbackDeps } from './speech-callbacks';

/** The callback route's parts as the API process wires them; its transcript reads are polls, outside the budget. */
export function speechCallbacksOf(deps: { config: Pick<Config, 'speech'>; client: Client; store: ObjectStore; log: Logger }): SpeechCallbackDeps {
  const log = deps.log.child({ provider: 'speech' });
  return {
    client: deps.client,
    speech: createAssemblyAiSpeechGateway({ settings: deps.config.speech, log }),
    callbacks: speechCallbackStore(deps.store),
    signer: speechCallbackSigner(deps.config.speech.callbackSecret),
    log,
  };
}

/** Where `DELETE /jobs/:id` deletes a call job's transcripts: the same provider, a deletion sends no audio. */
export function speechTranscriptsOf(deps: { config: Pick<Config, 'speech'>; log: Logger }): SpeechTranscriptRemover {
  return createAssemblyAiSpeechGateway({ settings: deps.config.speech, log: deps.log.child({ provider: 'speech' }) });
}
