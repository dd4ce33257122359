import type { ActivityDeps } from '../activities';
import type { WiredGateway } from '../gateway/gateway-from-config';
import type { ModelGateway } from '../gateway/model-call';
import type { Config } from '../lib/config';
import { createObjectStore } from '../lib/object-store';

/**
 * The real clients the activities run with; tests build their own ActivityDeps. The gateway comes from
 * gatewayFromConfig (gateway/gateway-from-config.ts), which the process also needs for its activity slots; the
 * model gateway behind the tenants' spend caps (gateway/spend/spend-from-config.ts).
 */
export function createActivityDeps(config: Config, wired: Pick<WiredGateway, 'embeddings'> & { gateway: ModelGateway }): ActivityDeps {
  return {
    store: createObjectStore(config.s3),
    gateway: wired.gateway,
    embeddings: wired.embeddings,
    config,
  };
}
