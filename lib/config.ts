import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseDurationMs } from './duration';
import { Secret } from './secret';

/**
 * The one place that reads the environment. Every process calls loadConfig() once at start and passes the
 * result down; nothing else touches process.env. Every setting is documented in the README's configuration
 * table (test/unit/config.test.ts fails when one is missing).
 */

export interface Tenant {
  id: string;
  apiKey: Secret;
  reviewerToken: Secret;
  webhookSecret: Secret;
  defaultCallbackUrl?: string;
}

export interface ModelPrice {
  /** USD per million input tokens */
  inputPerMTok: number;
  /** USD per million output tokens */
  outputPerMTok: number;
}

/** A provider's rate limits for one pool of models, per minute (the gateway's budget is sized from these). */
export interface ModelLimits {
  inputTokensPerMinute: number;
  outputTokensPerMinute: number;
  requestsPerMinute: number;
}

export interface Config {
  deployment: 'local' | 'production';
  logLevel: string;
  dataDir: string;
  toolCacheDir: string;
  temporal: {
    address: string;
    namespace: string;
    apiKey?: Secret;
    tls: boolean;
    webUiUrl: string;
    taskQueuePrefix: string;
    /** Which of address and webUiUrl the environment set; `npm start` takes the others from temporal-dev.yaml. */
    fromEnvironment: { address: boolean; webUiUrl: boolean };
  };
  s3: {
    endpoint?: string;
    region: string;
    bucket: string;
    accessKeyId?: string;
    secretAccessKey?: Secret;
    forcePathStyle: boolean;
  };
  anthropic: {
    apiKey: Secret;
    baseURL?: string;
    classifyModel: string;
    extractModel: string;
    /** Per-attempt HTTP timeout; Temporal's start-to-close timeout sits above it. */
    requestTimeoutMs: number;
    prices: Record<string, ModelPrice>;
    /**
     * The SDK's own retries per call. 0: Temporal is the only retry layer (DESIGN.md §2); the benchmark's naive
     * mode sets the SDK default, 2. Env ANTHROPIC_MAX_RETRIES.
     */
    maxRetries: number;
  };
  ledger: { url: string; apiKey?: Secret };
  api: {
    host: string;
    port: number;
    publicUrl: string;
    maxUploadBytes: number;
    uploadTmpDir: string;
    adminKey?: Secret;
  };
  jobs: {
    confidenceThreshold: number;
    reviewTimeoutMs: number;
    maxExtractionTries: number;
    deadLetterTimeoutMs: number;
  };
  worker: {
    /** Which task queues this worker process polls. */
    priorities: Array<'interactive' | 'bulk'>;
    /** Activity slots per worker; unset, they are derived from the token budget (gateway.ts planCapacity). */
    maxConcurrentActivities?: number;
    shutdownGraceMs: number;
  };
  tenants: Tenant[];
  /** The AI gateway: the fleet's token budget and the capacity plan derived from it (docs/gateway.md). */
  gateway: {
    /** Reserve every model call against the budget. Env GATEWAY_BUDGET (on|off), default on; off = the naive mode. */
    budgetEnabled: boolean;
    /**
     * Limits per pool. `*` (every model without its own entry) from GATEWAY_ITPM, GATEWAY_OTPM, GATEWAY_RPM;
     * per-model pools from GATEWAY_MODEL_LIMITS, JSON `{"<model>": {inputTokensPerMinute, outputTokensPerMinute,
     * requestsPerMinute}}`. Defaults are the simulator's; a lower limit in the provider's headers is adopted.
     */
    pools: Record<string, ModelLimits>;
    /** Share of every limit that only interactive calls may use. Env GATEWAY_INTERACTIVE_SHARE, default 0.2. */
    interactiveShare: number;
    /** One budget for every worker process; without it each process has its own. Env REDIS_URL. */
    redisUrl?: string;
    /** Prefix of the budget's keys in Redis, one per provider key. Env GATEWAY_REDIS_PREFIX. */
    redisKeyPrefix: string;
    /**
     * A typical model call, for planning until calls are observed: GATEWAY_EXPECTED_LATENCY (8s),
     * GATEWAY_EXPECTED_INPUT_TOKENS (3000), GATEWAY_EXPECTED_OUTPUT_TOKENS (1000) per call.
     */
    expected: { latencyMs: number; inputTokensPerCall: number; outputTokensPerCall: number };
    /** The most activity slots one worker process takes, whatever the plan says. Env GATEWAY_MAX_SLOTS_PER_WORKER. */
    maxSlotsPerWorker: number;
  };
  /** How results reach clients: webhooks and SSE (docs/clients.md). */
  clients: {
    /**
     * Accept callback URLs on loopback, private and link-local addresses (checked at submit and again against the
     * DNS answers at delivery). On in the local stack, whose test receivers listen on 127.0.0.1; off by default in
     * production so a tenant cannot make our workers call into our own network. Env WEBHOOK_ALLOW_PRIVATE_URLS.
     */
    allowPrivateCallbackUrls: boolean;
    /** How often an open SSE stream looks for new job events. Env SSE_POLL_INTERVAL, default 1s. */
    eventsPollMs: number;
  };
  /** Prometheus endpoints, traces and what they are built from (docs/operations.md). */
  observability: {
    /** Serve /metrics at all. Env METRICS_ENABLED, default true. */
    metricsEnabled: boolean;
    /** Where /metrics listens. Env METRICS_HOST, default 127.0.0.1; 0.0.0.0 in a pod so Prometheus can scrape it. */
    metricsHost: string;
    /** The API process's /metrics port. Env API_METRICS_PORT, default 9464; 0 picks a free port (logged). */
    apiMetricsPort: number;
    /** A worker process's /metrics port. Env WORKER_METRICS_PORT, default 9465; 0 picks a free port (logged). */
    workerMetricsPort: number;
    /**
     * Queue backlog and job counts are read from Temporal when scraped; answers are reused this long so several
     * scrapers cannot flood the server (which caches backlog stats ~5 s itself). Env METRICS_TEMPORAL_CACHE, 10s.
     */
    temporalStatsCacheMs: number;
    /** OTLP/HTTP collector base URL, e.g. http://otel-collector:4318; traces are off without it. Env OTEL_EXPORTER_OTLP_ENDPOINT. */
    otlpEndpoint?: string;
    /** Spans carry service.name `<this>-api` or `<this>-worker`. Env OTEL_SERVICE_NAME, default slowlane. */
    serviceName: string;
  };
}

/** What the `slowlane` CLI needs (loadCliConfig). */
export interface CliConfig {
  /** The API the CLI talks to. Env SLOWLANE_API_URL, default API_PUBLIC_URL. */
  apiUrl: string;
  /** The CLI's API key. Env SLOWLANE_API_KEY; in the local stack the first tenant's key. */
  apiKey?: Secret;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** Claude list prices (USD per million tokens) as published on 2026-12-02; override with MODEL_PRICES. */
const DEFAULT_PRICES: Record<string, ModelPrice> = {
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-6': { inputPerMTok: 5, outputPerMTok: 25 },
};

/** The local stack's demo tenant (DESIGN.md §4). Refused in production: real keys come from SLOWLANE_TENANTS. */
const DEMO_TENANT_JSON =
  '[{"id":"demo","apiKey":"demo-key","reviewerToken":"demo-reviewer-token","webhookSecret":"whsec_ZGVtby13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5"}]';

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const deployment = read.oneOf('SLOWLANE_ENV', ['local', 'production'], 'local');
  const dataDir = resolve(read.string('SLOWLANE_DATA_DIR', '.data'));
  const cacheHome = read.string('XDG_CACHE_HOME', join(homedir(), '.cache'));

  const anthropicKey = read.optionalString('ANTHROPIC_API_KEY');
  // No key and no base URL means the local provider simulator; a real key alone means the real service.
  const anthropicBaseURL =
    read.optionalString('ANTHROPIC_BASE_URL') ?? (anthropicKey ? undefined : 'http://127.0.0.1:8787');
  if (deployment === 'production' && !anthropicKey) throw new ConfigError('ANTHROPIC_API_KEY is required in production');

  const apiPort = read.int('API_PORT', 3000, 0, 65535);
  const apiHost = read.string('API_HOST', '127.0.0.1');
  const tenantsJson = read.optionalString('SLOWLANE_TENANTS');
  if (deployment === 'production' && !tenantsJson) throw new ConfigError('SLOWLANE_TENANTS is required in production');

  const config: Config = {
    deployment,
    logLevel: read.oneOf('LOG_LEVEL', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], 'info'),
    dataDir,
    toolCacheDir: resolve(read.string('SLOWLANE_TOOL_CACHE', join(cacheHome, 'slowlane'))),
    temporal: {
      address: read.string('TEMPORAL_ADDRESS', '127.0.0.1:7233'),
      namespace: read.string('TEMPORAL_NAMESPACE', 'slowlane'),
      apiKey: read.optionalSecret('TEMPORAL_API_KEY'),
      tls: read.bool('TEMPORAL_TLS', false),
      webUiUrl: read.string('TEMPORAL_WEB_UI_URL', 'http://127.0.0.1:8233'),
      taskQueuePrefix: read.string('TASK_QUEUE_PREFIX', 'slowlane'),
      fromEnvironment: {
        address: read.optionalString('TEMPORAL_ADDRESS') !== undefined,
        webUiUrl: read.optionalString('TEMPORAL_WEB_UI_URL') !== undefined,
      },
    },
    s3: {
      endpoint: read.optionalString('S3_ENDPOINT') ?? (deployment === 'local' ? 'http://127.0.0.1:7070' : undefined),
      region: read.string('S3_REGION', 'us-east-1'),
      bucket: read.string('S3_BUCKET', 'slowlane'),
      accessKeyId: read.optionalString('S3_ACCESS_KEY_ID') ?? (deployment === 'local' ? 'slowlane' : undefined),
      secretAccessKey:
        read.optionalSecret('S3_SECRET_ACCESS_KEY') ??
        (deployment === 'local' ? new Secret('slowlane-local-secret') : undefined),
      forcePathStyle: read.bool('S3_FORCE_PATH_STYLE', deployment === 'local'),
    },
    anthropic: {
      apiKey: new Secret(anthropicKey ?? 'simulator-key'),
      baseURL: anthropicBaseURL,
      classifyModel: read.string('MODEL_CLASSIFY', 'claude-haiku-4-5'),
      extractModel: read.string('MODEL_EXTRACT', 'claude-sonnet-4-6'),
      requestTimeoutMs: read.duration('MODEL_REQUEST_TIMEOUT', 120_000),
      prices: { ...DEFAULT_PRICES, ...read.json<Record<string, ModelPrice>>('MODEL_PRICES', {}) },
      maxRetries: read.int('ANTHROPIC_MAX_RETRIES', 0, 0, 10),
    },
    ledger: {
      url: read.string('LEDGER_URL', 'http://127.0.0.1:8789'),
      apiKey: read.optionalSecret('LEDGER_API_KEY'),
    },
    api: {
      host: apiHost,
      port: apiPort,
      publicUrl: readPublicUrl(read, apiPort),
      maxUploadBytes: read.int('MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 1, 512 * 1024 * 1024),
      uploadTmpDir: read.string('UPLOAD_TMP_DIR', tmpdir()),
      adminKey: read.optionalSecret('ADMIN_API_KEY') ?? (deployment === 'local' ? new Secret('admin-key') : undefined),
    },
    jobs: {
      confidenceThreshold: read.number('CONFIDENCE_THRESHOLD', 0.9, 0, 1),
      reviewTimeoutMs: read.duration('REVIEW_TIMEOUT', 48 * 3_600_000),
      maxExtractionTries: read.int('MAX_EXTRACTION_TRIES', 3, 1, 10),
      deadLetterTimeoutMs: read.duration('DEAD_LETTER_TIMEOUT', 14 * 86_400_000),
    },
    worker: {
      priorities: read.list('WORKER_PRIORITIES', ['interactive', 'bulk'], ['interactive', 'bulk']),
      maxConcurrentActivities: read.optionalInt('WORKER_MAX_CONCURRENT_ACTIVITIES', 1, 10_000),
      shutdownGraceMs: read.duration('WORKER_SHUTDOWN_GRACE', 10_000),
    },
    tenants: parseTenants(tenantsJson ?? DEMO_TENANT_JSON),
    gateway: {
      budgetEnabled: read.bool('GATEWAY_BUDGET', true),
      pools: {
        ...read.json<Record<string, ModelLimits>>('GATEWAY_MODEL_LIMITS', {}),
        // The simulator's default quota (local/simulator/options.ts); the real provider's headers lower it if needed.
        '*': {
          inputTokensPerMinute: read.int('GATEWAY_ITPM', 2_000_000, 1, 1e9),
          outputTokensPerMinute: read.int('GATEWAY_OTPM', 400_000, 1, 1e9),
          requestsPerMinute: read.int('GATEWAY_RPM', 4_000, 1, 1e7),
        },
      },
      interactiveShare: read.number('GATEWAY_INTERACTIVE_SHARE', 0.2, 0, 0.9),
      redisUrl: read.optionalString('REDIS_URL'),
      redisKeyPrefix: read.string('GATEWAY_REDIS_PREFIX', 'slowlane:budget'),
      expected: {
        latencyMs: read.duration('GATEWAY_EXPECTED_LATENCY', 8_000),
        inputTokensPerCall: read.int('GATEWAY_EXPECTED_INPUT_TOKENS', 3_000, 1, 10_000_000),
        outputTokensPerCall: read.int('GATEWAY_EXPECTED_OUTPUT_TOKENS', 1_000, 1, 1_000_000),
      },
      maxSlotsPerWorker: read.int('GATEWAY_MAX_SLOTS_PER_WORKER', 100, 1, 10_000),
    },
    clients: {
      allowPrivateCallbackUrls: read.bool('WEBHOOK_ALLOW_PRIVATE_URLS', deployment === 'local'),
      eventsPollMs: read.duration('SSE_POLL_INTERVAL', 1_000),
    },
    observability: {
      metricsEnabled: read.bool('METRICS_ENABLED', true),
      metricsHost: read.string('METRICS_HOST', '127.0.0.1'),
      apiMetricsPort: read.int('API_METRICS_PORT', 9464, 0, 65535),
      workerMetricsPort: read.int('WORKER_METRICS_PORT', 9465, 0, 65535),
      temporalStatsCacheMs: read.duration('METRICS_TEMPORAL_CACHE', 10_000),
      otlpEndpoint: read.optionalString('OTEL_EXPORTER_OTLP_ENDPOINT')?.replace(/\/$/, ''),
      serviceName: read.string('OTEL_SERVICE_NAME', 'slowlane'),
    },
  };
  read.assertNoErrors();
  checkModelLimits(config.gateway.pools);
  return config;
}

/**
 * The CLI's settings alone. It is a client: on a machine set up for production it must not need the tenants,
 * model key and S3 credentials that loadConfig insists on there. Defaults: this deployment's own API and, in
 * the local stack, the first tenant's key.
 */
export function loadCliConfig(env: Env = process.env): CliConfig {
  const read = new EnvReader(env);
  const deployment = read.oneOf('SLOWLANE_ENV', ['local', 'production'], 'local');
  const apiUrl = read.optionalString('SLOWLANE_API_URL')?.replace(/\/$/, '') || readPublicUrl(read, read.int('API_PORT', 3000, 0, 65535));
  const apiKey =
    read.optionalSecret('SLOWLANE_API_KEY') ??
    (deployment === 'local' ? parseTenants(read.optionalString('SLOWLANE_TENANTS') ?? DEMO_TENANT_JSON)[0]?.apiKey : undefined);
  read.assertNoErrors();
  return { apiUrl, ...(apiKey ? { apiKey } : {}) };
}

function readPublicUrl(read: EnvReader, apiPort: number): string {
  return read.string('API_PUBLIC_URL', `http://127.0.0.1:${apiPort}`).replace(/\/$/, '');
}

function checkModelLimits(pools: Record<string, ModelLimits>): void {
  for (const [pool, limits] of Object.entries(pools)) {
    for (const key of ['inputTokensPerMinute', 'outputTokensPerMinute', 'requestsPerMinute'] as const) {
      const value: unknown = (limits as Partial<ModelLimits> | null)?.[key];
      if (typeof value !== 'number' || !(value > 0)) {
        throw new ConfigError(`GATEWAY_MODEL_LIMITS["${pool}"].${key} must be a positive number`);
      }
    }
  }
}

interface TenantJson {
  id?: unknown;
  apiKey?: unknown;
  reviewerToken?: unknown;
  webhookSecret?: unknown;
  defaultCallbackUrl?: unknown;
}

function parseTenants(json: string): Tenant[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ConfigError('SLOWLANE_TENANTS must be a JSON array of {id, apiKey, reviewerToken, webhookSecret}');
  }
  if (!Array.isArray(raw) || raw.length === 0) throw new ConfigError('SLOWLANE_TENANTS must be a non-empty array');
  return raw.map((entry: TenantJson, index) => {
    const field = (name: keyof TenantJson): string => {
      const value = entry[name];
      if (typeof value !== 'string' || value.length === 0) {
        throw new ConfigError(`SLOWLANE_TENANTS[${index}].${name} must be a non-empty string`);
      }
      return value;
    };
    const id = field('id');
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(id)) {
      throw new ConfigError(`SLOWLANE_TENANTS[${index}].id must match [a-z0-9-], at most 63 characters`);
    }
    const defaultCallbackUrl = typeof entry.defaultCallbackUrl === 'string' ? entry.defaultCallbackUrl : undefined;
    return {
      id,
      apiKey: new Secret(field('apiKey')),
      reviewerToken: new Secret(field('reviewerToken')),
      webhookSecret: new Secret(field('webhookSecret')),
      ...(defaultCallbackUrl ? { defaultCallbackUrl } : {}),
    };
  });
}

/** Collects every bad value so a misconfigured process reports all of them at once. */
class EnvReader {
  private readonly errors: string[] = [];
  constructor(private readonly env: Env) {}

  optionalString(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }
  string(name: string, fallback: string): string {
    return this.optionalString(name) ?? fallback;
  }
  optionalSecret(name: string): Secret | undefined {
    const value = this.optionalString(name);
    return value === undefined ? undefined : new Secret(value);
  }
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.errors.push(`${name}=${value} is not one of ${allowed.join(', ')}`);
    return fallback;
  }
  list<T extends string>(name: string, allowed: readonly T[], fallback: T[]): T[] {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    const items = value.split(',').map((item) => item.trim());
    const bad = items.filter((item) => !(allowed as readonly string[]).includes(item));
    if (bad.length > 0 || items.length === 0) {
      this.errors.push(`${name}=${value}: each item must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return items as T[];
  }
  number(name: string, fallback: number, min: number, max: number): number {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
      this.errors.push(`${name}=${value} must be a number between ${min} and ${max}`);
      return fallback;
    }
    return parsed;
  }
  optionalInt(name: string, min: number, max: number): number | undefined {
    return this.optionalString(name) === undefined ? undefined : this.int(name, min, min, max);
  }
  int(name: string, fallback: number, min: number, max: number): number {
    const parsed = this.number(name, fallback, min, max);
    if (!Number.isInteger(parsed)) {
      this.errors.push(`${name} must be a whole number`);
      return fallback;
    }
    return parsed;
  }
  bool(name: string, fallback: boolean): boolean {
    const value = this.optionalString(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.errors.push(`${name}=${value} must be true or false`);
    return fallback;
  }
  duration(name: string, fallbackMs: number): number {
    const value = this.optionalString(name);
    if (value === undefined) return fallbackMs;
    const parsed = parseDurationMs(value);
    if (parsed === undefined || parsed <= 0) {
      this.errors.push(`${name}=${value} must be a duration such as 500ms, 30s, 15m, 48h or 7d`);
      return fallbackMs;
    }
    return parsed;
  }
  json<T>(name: string, fallback: T): T {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    try {
      return JSON.parse(value) as T;
    } catch {
      this.errors.push(`${name} must be valid JSON`);
      return fallback;
    }
  }
  assertNoErrors(): void {
    if (this.errors.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${this.errors.join('\n  - ')}`);
  }
}
