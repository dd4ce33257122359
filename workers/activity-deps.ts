import type { ActivityDeps } from '../activities';
import { createAnthropicClient, createModelGateway } from '../gateway/model-gateway';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { createObjectStore } from '../lib/object-store';

/** The real clients the activities run with; tests build their own ActivityDeps. */
export function createActivityDeps(config: Config, log: Logger): ActivityDeps {
  return {
    store: createObjectStore(config.s3),
    gateway: createModelGateway({
      client: createAnthropicClient(config.anthropic),
      prices: config.anthropic.prices,
      log: log.child({ component: 'gateway' }),
    }),
    config,
  };
}
