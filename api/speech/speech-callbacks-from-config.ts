import type { Client } from '@temporalio/client';
import { createAssemblyAiSpeechGateway, type WiredAsyncSpeechGateway } from '../../gateway/speech/assemblyai-speech-gateway';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { ObjectStore } from '../../lib/object-store';
import { speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { speechCallbackStore } from '../../lib/speech/speech-callback-store';
import type { SpeechCallbackDeps } from './speech-callbacks';

/**
 * The provider that calls back, as the API process uses it: the callback route's polls of a transcript (outside the
 * budget) and `DELETE /jobs/:id`'s deletion of a call job's transcripts (a deletion sends no audio). One client for both.
 */
export function speechProviderOf(deps: { config: Pick<Config, 'speech'>; log: Logger }): WiredAsyncSpeechGateway {
  return createAssemblyAiSpeechGateway({ settings: deps.config.speech, log: deps.log.child({ provider: 'speech' }) });
}

/** The callback route's parts as the API process wires them. */
export function speechCallbacksOf(deps: {
  config: Pick<Config, 'speech'>;
  client: Client;
  store: ObjectStore;
  speech: WiredAsyncSpeechGateway;
  log: Logger;
}): SpeechCallbackDeps {
  return {
    client: deps.client,
    speech: deps.speech,
    callbacks: speechCallbackStore(deps.store),
    signer: speechCallbackSigner(deps.config.speech.callbackSecret),
    log: deps.log.child({ provider: 'speech' }),
  };
}
