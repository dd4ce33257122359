import { join } from 'node:path';
import { SettingsReader } from '../settings/read-settings';
import type { Deployment, SettingValues } from '../settings/setting';
import { fromEnv, type Env } from '../settings/setting-sources';
import { Secret } from '../secret';
import { apiArea } from './api-settings';
import { batchLaneArea } from './batch-lane-settings';
import { callArea } from './call-settings';
import { clientsArea } from './clients-settings';
import type { Config } from './config-types';
import { deploymentArea, deploymentSetting } from './deployment-settings';
import { documentArea } from './document-settings';
import { embeddingsArea, VOYAGE_URL } from './embeddings-settings';
import { gatewayArea } from './gateway-settings';
import { jobsArea } from './jobs-settings';
import { ledgerArea } from './ledger-settings';
import { DEFAULT_PRICES } from './model-prices';
import { modelArea, SIMULATOR_URL } from './model-settings';
import { observabilityArea } from './observability-settings';
import { peopleOf } from './people';
import { peopleArea } from './people-settings';
import { pushConfigOf } from './push-config';
import { pushArea } from './push-settings';
import { type ObjectEncryption, s3Area } from './s3-settings';
import { retentionArea } from './retention-settings';
import { speechConfigOf } from './speech-config';
import { speechArea } from './speech-settings';
import { spendArea } from './spend-settings';
import { temporalArea } from './temporal-settings';
import { workerArea } from './worker-settings';

/**
 * The one place that reads the environment for the product's processes. Each calls it once at start and passes
 * the result down; a bad or missing variable stops the process with one error naming every one of them.
 */
export function loadConfig(env: Env = process.env): Config {
  const reader = readerFor(env);
  const core = reader.readTable(deploymentArea.settings);
  const temporal = reader.readTable(temporalArea.settings);
  const s3 = reader.readTable(s3Area.settings);
  const model = reader.readTable(modelArea.settings);
  const ledger = reader.readTable(ledgerArea.settings);
  const api = reader.readTable(apiArea.settings);
  const jobs = reader.readTable(jobsArea.settings);
  const worker = reader.readTable(workerArea.settings);
  const gateway = reader.readTable(gatewayArea.settings);
  const batchLane = reader.readTable(batchLaneArea.settings);
  const spend = reader.readTable(spendArea.settings);
  const retention = reader.readTable(retentionArea.settings);
  const embeddings = reader.readTable(embeddingsArea.settings);
  const speech = speechConfigOf(reader.readTable(speechArea.settings), core.deployment, api.pageTokenSecret, reader);
  const document = reader.readTable(documentArea.settings);
  const call = reader.readTable(callArea.settings);
  const clients = reader.readTable(clientsArea.settings);
  const push = pushConfigOf(reader.readTable(pushArea.settings), core.deployment, reader);
  const observability = reader.readTable(observabilityArea.settings);
  const people = peopleOf(reader.readTable(peopleArea.settings), core.tenants, reader);
  const temporalFromEnvironment = {
    address: reader.isSet(temporalArea.settings.address),
    webUiUrl: reader.isSet(temporalArea.settings.webUiUrl),
  };
  // A misspelt tenant id would leave the real tenant without its cap, without a word.
  for (const tenantId of Object.keys(spend.tenantSpendCaps)) {
    if (core.tenants && !core.tenants.some((tenant) => tenant.id === tenantId)) reader.report(`TENANT_SPEND_CAPS names "${tenantId}", which is no tenant of SLOWLANE_TENANTS`);
  }
  for (const tenantId of Object.keys(retention.tenantRetentionMs)) {
    if (core.tenants && !core.tenants.some((tenant) => tenant.id === tenantId)) reader.report(`TENANT_RETENTION names "${tenantId}", which is no tenant of SLOWLANE_TENANTS`);
  }
  const encryption = objectEncryptionOf(s3.encryption, core.deployment, temporal.payloadCodecKeys !== undefined, reader);
  reader.finish();

  return {
    deployment: core.deployment,
    logLevel: core.logLevel,
    dataDir: core.dataDir,
    toolCacheDir: core.toolCacheDir ?? join(core.cacheHome, 'slowlane'),
    tenants: core.tenants,
    temporal: { ...temporal, fromEnvironment: temporalFromEnvironment },
    s3: { ...s3, encryption },
    anthropic: {
      ...model,
      // No key and no base URL means the local provider simulator; a real key alone means the real service.
      apiKey: model.apiKey ?? new Secret('simulator-key'),
      baseURL: model.baseURL ?? (model.apiKey ? undefined : SIMULATOR_URL),
      prices: { ...DEFAULT_PRICES, ...model.prices },
    },
    embeddings: {
      ...embeddings,
      // As for the Messages API: no key and no base URL means the local simulator.
      apiKey: embeddings.apiKey ?? new Secret('simulator-key'),
      baseURL: embeddings.baseURL ?? (embeddings.apiKey ? VOYAGE_URL : SIMULATOR_URL),
      dimension: Number(embeddings.dimension),
    },
    speech,
    document,
    call,
    ledger,
    api: { ...api, publicUrl: publicUrlOf(api) },
    jobs,
    worker,
    gateway: gatewayConfigOf(gateway),
    batchLane,
    spend: { caps: spend.tenantSpendCaps, redisKeyPrefix: spend.spendRedisKeyPrefix, redisPersistence: spend.spendRedisPersistence },
    retention: { defaultMs: retention.retentionMs, tenantMs: retention.tenantRetentionMs, sweepEveryMs: retention.retentionSweepEveryMs },
    clients,
    push,
    observability,
    people,
  };
}

/**
 * Fails closed: production stores nothing unencrypted, so it takes the product's own encryption unless the deployment
 * declares the store's; local mode without codec keys (a file run alone) has nothing to seal with.
 */
export function objectEncryptionOf(set: ObjectEncryption | undefined, deployment: Deployment, hasCodecKeys: boolean, reader: SettingsReader): ObjectEncryption {
  const encryption = set ?? (hasCodecKeys || deployment === 'production' ? 'product' : 'none');
  if (encryption === 'none' && deployment === 'production') {
    reader.report('OBJECT_STORE_ENCRYPTION=none is refused in production: set `product` (with PAYLOAD_CODEC_KEYS) or `server-side` where the bucket encrypts every object');
  }
  if (encryption === 'product' && !hasCodecKeys && deployment !== 'production') {
    reader.report('OBJECT_STORE_ENCRYPTION=product needs PAYLOAD_CODEC_KEYS: the objects are sealed under its keys');
  }
  return encryption;
}

/** The gateway's settings as the code uses them: the provider limits as the `*` pool beside per-model ones. */
export function gatewayConfigOf(gateway: SettingValues<typeof gatewayArea.settings>): Config['gateway'] {
  return {
    budgetEnabled: gateway.budgetEnabled,
    pools: {
      ...gateway.modelLimits,
      '*': {
        inputTokensPerMinute: gateway.inputTokensPerMinute,
        outputTokensPerMinute: gateway.outputTokensPerMinute,
        requestsPerMinute: gateway.requestsPerMinute,
      },
    },
    interactiveShare: gateway.interactiveShare,
    interactiveIdleShare: gateway.interactiveIdleShare,
    interactiveDecayMs: gateway.interactiveDecayMs,
    redisUrl: gateway.redisUrl,
    redisKeyPrefix: gateway.redisKeyPrefix,
    expected: {
      latencyMs: gateway.expectedLatencyMs,
      inputTokensPerCall: gateway.expectedInputTokens,
      outputTokensPerCall: gateway.expectedOutputTokens,
    },
    maxSlotsPerWorker: gateway.maxSlotsPerWorker,
  };
}

/**
 * A reader whose defaults are this deployment's; SLOWLANE_ENV itself is validated with everything else. Unset or
 * bad, the rest is read as production would read it, so the one error also names what production would miss.
 */
export function readerFor(env: Env): SettingsReader {
  const sources = [fromEnv(env)];
  const deployment: Deployment = new SettingsReader(sources).read(deploymentSetting) ?? 'production';
  return new SettingsReader(sources, deployment);
}

export function publicUrlOf(api: { publicUrl: string | undefined; port: number }): string {
  return api.publicUrl ?? `http://127.0.0.1:${api.port}`;
}
