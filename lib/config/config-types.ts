import type { Deployment, SettingsArea, SettingValues } from '../settings/setting';
import type { Secret } from '../secret';
import type { apiArea } from './api-settings';
import type { batchLaneArea } from './batch-lane-settings';
import type { clientsArea } from './clients-settings';
import type { callArea } from './call-settings';
import type { documentArea } from './document-settings';
import type { embeddingsArea } from './embeddings-settings';
import type { jobsArea } from './jobs-settings';
import type { ledgerArea } from './ledger-settings';
import type { ModelLimits } from './model-limits';
import type { ModelPrice } from './model-prices';
import type { modelArea } from './model-settings';
import type { PushConfig } from './push-config';
import type { observabilityArea } from './observability-settings';
import type { ObjectEncryption, s3Area } from './s3-settings';
import type { retentionArea } from './retention-settings';
import type { SpeechConfig } from './speech-config';
import type { spendArea } from './spend-settings';
import type { temporalArea } from './temporal-settings';
import type { People } from './people';
import type { Tenant } from './tenants';
import type { workerArea } from './worker-settings';

/** What the values of an area's table are; what each one means is its doc line in the table. */
type Values<Area extends SettingsArea> = SettingValues<Area['settings']>;

/**
 * Every process's settings, read once at start by loadConfig() and passed down. An area whose config is its
 * table's values is typed from the table; the rest says below what the assembly adds.
 */
export interface Config {
  deployment: Deployment;
  logLevel: string;
  dataDir: string;
  toolCacheDir: string;
  tenants: Tenant[];
  temporal: Values<typeof temporalArea> & {
    /** Which of address and webUiUrl the environment set; `npm start` takes the others from temporal-dev.yaml. */
    fromEnvironment: { address: boolean; webUiUrl: boolean };
  };
  /** `encryption` resolved: its default depends on the deployment and the codec keys. */
  s3: Omit<Values<typeof s3Area>, 'encryption'> & { encryption: ObjectEncryption };
  /** `apiKey` is a placeholder the simulator accepts when no real key is set. */
  anthropic: Omit<Values<typeof modelArea>, 'apiKey'> & { apiKey: Secret; prices: Record<string, ModelPrice> };
  /** The embeddings provider; `apiKey` is a placeholder the simulator accepts when no real key is set. */
  embeddings: Omit<Values<typeof embeddingsArea>, 'apiKey' | 'baseURL' | 'dimension'> & {
    apiKey: Secret;
    baseURL: string;
    dimension: number;
  };
  /** The speech-to-text provider; `apiKey` is a placeholder the simulator accepts when no real key is set. */
  speech: SpeechConfig;
  document: Values<typeof documentArea>;
  call: Values<typeof callArea>;
  ledger: Values<typeof ledgerArea>;
  api: Omit<Values<typeof apiArea>, 'publicUrl'> & { publicUrl: string };
  jobs: Values<typeof jobsArea>;
  worker: Values<typeof workerArea>;
  /** The AI gateway: the fleet's token budget and the capacity plan derived from it (docs/gateway.md). */
  gateway: {
    budgetEnabled: boolean;
    /** Limits per pool: `*` for every model without its own entry, then one per model with its own quota. */
    pools: Record<string, ModelLimits>;
    interactiveShare: number;
    interactiveIdleShare: number;
    interactiveDecayMs: number;
    redisUrl?: string | undefined;
    redisKeyPrefix: string;
    /** A typical model call, for planning until calls are observed. */
    expected: { latencyMs: number; inputTokensPerCall: number; outputTokensPerCall: number };
    maxSlotsPerWorker: number;
  };
  batchLane: Values<typeof batchLaneArea>;
  /** Each tenant's spend caps (gateway/spend); the store is Redis when `gateway.redisUrl` is set. */
  spend: {
    caps: Values<typeof spendArea>['tenantSpendCaps'];
    redisKeyPrefix: string;
    redisPersistence: Values<typeof spendArea>['spendRedisPersistence'];
  };
  /** How long each tenant's closed jobs are kept (lib/config/retention.ts reads a tenant's). */
  retention: {
    defaultMs: number;
    tenantMs: Values<typeof retentionArea>['tenantRetentionMs'];
    sweepEveryMs: number;
  };
  clients: Values<typeof clientsArea>;
  /** Web Push; `vapid` is present exactly when `enabled` (loadConfig refuses one without the other). */
  push: PushConfig;
  observability: Values<typeof observabilityArea>;
  /** Who may review and operate, and how they sign in (reviewers' own tokens are with their tenant). */
  people: People;
}

/** What the operator's Temporal commands need (loadOperatorConfig): a client's connection and codec keys. */
export interface OperatorConfig {
  temporal: Values<typeof temporalArea>;
}

/** Where an operator's command writes its audit record (loadAuditStoreConfig): the bucket and the keys that seal it. */
export type AuditStoreConfig = Pick<Config, 's3'> & { temporal: Values<typeof temporalArea> };

/** What the capacity plan reads (loadCapacityConfig). */
export interface CapacityConfig {
  gateway: Config['gateway'];
  worker: Pick<Config['worker'], 'maxConcurrentActivities'>;
}

/** What the `slowlane` CLI needs (loadCliConfig). */
export interface CliConfig {
  apiUrl: string;
  apiKey?: Secret;
}
