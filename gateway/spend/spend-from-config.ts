import { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { ModelGateway } from '../model-call';
import { InProcessSpendStore } from './local-spend-store';
import { RedisSpendStore } from './redis-spend-store';
import { withSpendCaps } from './spend-capped-gateway';
import { spendMetricsListener } from './spend-metrics';
import type { SpendStore } from './spend-store';

export interface WiredSpendCaps {
  gateway: ModelGateway;
  store: SpendStore;
  close(): Promise<void>;
}

/**
 * The worker's gateway behind the tenants' spend caps: totals in Redis when REDIS_URL is set (the token budget's
 * server, its own connection and keys), in the process otherwise, as the token budget does.
 */
export function spendCapsFromConfig(
  config: Pick<Config, 'anthropic' | 'gateway' | 'spend'>,
  gateway: ModelGateway,
  log: Logger,
  registry?: Registry,
): WiredSpendCaps {
  let store: SpendStore;
  if (config.gateway.redisUrl) {
    const redis = new Redis(config.gateway.redisUrl, { maxRetriesPerRequest: 2, connectionName: 'slowlane-spend' });
    redis.on('error', (error: unknown) => log.warn({ err: error, component: 'spend-caps' }, 'redis connection trouble'));
    store = new RedisSpendStore(redis, config.spend.redisKeyPrefix);
  } else {
    store = new InProcessSpendStore();
  }
  const onEvent = registry ? spendMetricsListener(registry, config.spend.caps) : undefined;
  return {
    gateway: withSpendCaps(gateway, { store, caps: config.spend.caps, prices: config.anthropic.prices, ...(onEvent ? { onEvent } : {}) }),
    store,
    close: () => store.close(),
  };
}
