import type { EmbeddingsGateway } from '../gateway/embeddings/embeddings-call';
import type { ProviderFiles } from '../gateway/files/provider-files';
import type { SpeechGateway } from '../gateway/speech/transcription-call';
import type { ModelGateway } from '../gateway/model-call';
import type { Config } from '../lib/config';
import type { ObjectStore } from '../lib/object-store';
import type { BatchLaneDeps } from './batch-lane/batch-lane-deps';
import type { ModelStepDeps } from './call-model-on-text';
import type { CallbackTranscriptionDeps } from './speech/transcribe-with-callback';
import type { RetentionDeps } from './retention/retention-deps';

/** The clients every type's activity factory is built from: injected, so tests can hand in their own. */
export interface ActivityDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  embeddings: EmbeddingsGateway;
  /** The speech-to-text provider behind its own audio-seconds budget (gateway/speech/). */
  speech: SpeechGateway;
  /** The same provider in its callback shape, when SPEECH_PROVIDER=assemblyai: call chunks are submitted and waited for. */
  speechByCallback?: CallbackTranscriptionDeps;
  config: Pick<Config, 'anthropic' | 'document' | 'embeddings' | 'speech' | 'call' | 'ledger' | 'tenants' | 'clients' | 'deployment' | 'push'>;
  /** The Message Batches lane; without it the lane's activities refuse and jobs take the live path. */
  batchLane?: BatchLaneDeps;
  /** The retention sweep's clients; without them its activities refuse (workers/main.ts always gives them). */
  retention?: RetentionDeps;
  /**
   * The provider's Files API. Scans are uploaded through it only with MODEL_FILES_API; the job-end cleanup deletes
   * what a job uploaded either way (a deployment that turned the setting off still has jobs that uploaded).
   */
  providerFiles?: ProviderFiles;
}

/** A model step's clients with the model it calls; the same for its live activity and its batch lane first call. */
export function modelStepDeps(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'config' | 'batchLane' | 'providerFiles'>, model: string): ModelStepDeps {
  return {
    store: deps.store,
    gateway: deps.gateway,
    model,
    repairTries: deps.config.anthropic.repairTries,
    ...(deps.batchLane ? { lane: deps.batchLane } : {}),
    ...uploadsOf(deps),
  };
}

/** The Files API for uploads, when the deployment sends scans by id (MODEL_FILES_API). */
export function uploadsOf(deps: Pick<ActivityDeps, 'config' | 'providerFiles'>): { files?: ProviderFiles } {
  return deps.config.anthropic.filesApi && deps.providerFiles ? { files: deps.providerFiles } : {};
}
