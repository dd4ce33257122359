import type { EmbeddingsGateway } from '../gateway/embeddings/embeddings-call';
import type { ModelGateway } from '../gateway/model-call';
import type { Config } from '../lib/config';
import type { ObjectStore } from '../lib/object-store';
import type { BatchLaneDeps } from './batch-lane/batch-lane-deps';
import type { ModelStepDeps } from './call-model-on-text';
import type { RetentionDeps } from './retention/retention-deps';

/** The clients every type's activity factory is built from: injected, so tests can hand in their own. */
export interface ActivityDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  embeddings: EmbeddingsGateway;
  config: Pick<Config, 'anthropic' | 'document' | 'embeddings' | 'ledger' | 'tenants' | 'clients' | 'deployment' | 'push'>;
  /** The Message Batches lane; without it the lane's activities refuse and jobs take the live path. */
  batchLane?: BatchLaneDeps;
  /** The retention sweep's clients; without them its activities refuse (workers/main.ts always gives them). */
  retention?: RetentionDeps;
}

/** A model step's clients with the model it calls; the same for its live activity and its batch lane first call. */
export function modelStepDeps(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'config' | 'batchLane'>, model: string): ModelStepDeps {
  return {
    store: deps.store,
    gateway: deps.gateway,
    model,
    repairTries: deps.config.anthropic.repairTries,
    ...(deps.batchLane ? { lane: deps.batchLane } : {}),
  };
}
