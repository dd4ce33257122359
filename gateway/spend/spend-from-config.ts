import { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Config } from '../../lib/config';
import { createObjectStore } from '../../lib/object-store';
import type { Logger } from '../../lib/logger';
import type { EmbeddingsGateway } from '../embeddings/embeddings-call';
import type { ModelGateway } from '../model-call';
import type { AsyncSpeechGateway, SpeechGateway } from '../speech/transcription-call';
import { InProcessSpendStore } from './local-spend-store';
import { checkRedisPersistence } from './redis-persistence';
import { RedisSpendStore } from './redis-spend-store';
import { s3PendingSettlements } from './s3-pending-settlements';
import { withEmbeddingsSpendCaps } from './spend-capped-embeddings';
import { withSpendCaps } from './spend-capped-gateway';
import { withAsyncSpeechSpendCaps, withSpeechSpendCaps } from './spend-capped-speech';
import { spendMetricsListener } from './spend-metrics';
import type { SpendStore } from './spend-store';
import { createTenantSpend, type TenantSpend } from './tenant-spend';

/** Every paid door of the worker, each behind the tenants' spend caps. */
export interface WiredSpendCaps {
  gateway: ModelGateway;
  embeddings: EmbeddingsGateway;
  speech: SpeechGateway;
  /** The asynchronous speech door (SPEECH_PROVIDER=assemblyai): its submissions counted like `speech`'s calls. */
  speechAsync: AsyncSpeechGateway;
  /** For doors answered later (the batch lane's entries: activities/batch-lane/batch-entry-spend.ts). */
  spend: TenantSpend;
  store: SpendStore;
  close(): Promise<void>;
}

/**
 * The worker's model, embeddings and speech gateways behind the tenants' spend caps, all counting into one store: totals
 * in Redis when REDIS_URL is set (the token budget's server, its own connection and keys; its persistence checked
 * first: redis-persistence.ts), in the process otherwise, as the token budget does. Settlements the store does not
 * take wait in the bucket and are settled by a pass every few seconds (spend-settler.ts).
 */
export async function spendCapsFromConfig(
  config: Pick<Config, 'anthropic' | 'embeddings' | 'speech' | 'gateway' | 'spend' | 's3' | 'deployment' | 'temporal'>,
  doors: { gateway: ModelGateway; embeddings: EmbeddingsGateway; speech: SpeechGateway; speechAsync: AsyncSpeechGateway },
  log: Logger,
  registry?: Registry,
): Promise<WiredSpendCaps> {
  let store: SpendStore;
  if (config.gateway.redisUrl) {
    const redis = new Redis(config.gateway.redisUrl, { maxRetriesPerRequest: 2, connectionName: 'slowlane-spend' });
    redis.on('error', (error: unknown) => log.warn({ err: error, component: 'spend-caps' }, 'redis connection trouble'));
    try {
      await checkRedisPersistence(redis, { deployment: config.deployment, persistence: config.spend.redisPersistence }, log);
    } catch (error) {
      redis.disconnect();
      throw error;
    }
    store = new RedisSpendStore(redis, { keyPrefix: config.spend.redisKeyPrefix });
  } else {
    store = new InProcessSpendStore();
  }
  const onEvent = registry ? spendMetricsListener(registry, config.spend.caps) : undefined;
  const spend = createTenantSpend({
    store,
    caps: config.spend.caps,
    pending: s3PendingSettlements(createObjectStore(config)),
    log: log.child({ component: 'spend-caps' }),
    ...(onEvent ? { onEvent } : {}),
  });
  spend.settler.start();
  return {
    gateway: withSpendCaps(doors.gateway, {
      spend,
      prices: config.anthropic.prices,
      constrainedModels: config.anthropic.constrainedOutputModels,
    }),
    embeddings: withEmbeddingsSpendCaps(doors.embeddings, {
      spend,
      model: config.embeddings.model,
      pricePerMTok: config.embeddings.pricePerMTok,
    }),
    speech: withSpeechSpendCaps(doors.speech, { spend, pricePerMinute: config.speech.pricePerMinute }),
    speechAsync: withAsyncSpeechSpendCaps(doors.speechAsync, { spend, pricePerMinute: config.speech.pricePerMinute }),
    spend,
    store,
    async close() {
      await spend.settler.stop();
      await store.close();
    },
  };
}
