import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIORITIES } from '../../common/task-queues';
import { createS3Client, ensureBucket } from '../../lib/object-store';
import { Secret } from '../../lib/secret';
import { applyNamespaceSettings, temporalReady, workerIsPolling } from './temporal-setup';
import { devServerArgs, loadTemporalDevConfig } from './temporal-dev-config';
import { DEFAULT_RESTART_POLICY, type ManagedProcess, type RestartPolicy, Supervisor } from './supervisor';
import { LOCAL_MODE_ENV, type LocalSecrets, loadOrCreateLocalSecrets, localSecretsEnv } from './local-secrets';
import { localCodecKeys } from './local-codec-keys';
import { freePort } from './ports';
import type { PostgresAddress } from './postgres-server';
import { startPostgresTemporal, type TemporalKind } from './postgres-temporal';
import { freeClusterPort } from './temporal-cluster';
import { ensureGoTool, ensureSpeechTools, TEMPORAL_CLI, VERSITYGW } from './tools';

export interface StackPorts {
  temporal: number;
  temporalUi?: number;
  s3: number;
  simulator: number;
  ledger: number;
  api: number;
}

/** Free loopback ports for a private stack (tests, benchmarks), so it never collides with a running `npm start`. */
export async function freeStackPorts(): Promise<StackPorts> {
  return { temporal: await freePort(), s3: await freePort(), simulator: await freePort(), ledger: await freePort(), api: await freePort() };
}

export interface StackOptions {
  dataDir: string;
  ports: StackPorts;
  toolCacheDir: string;
  pathEnv: string;
  /** Settings for the product's processes (worker, API) on top of what the stack derives. */
  productEnv?: Record<string, string>;
  /** Node flags for the product's processes that NODE_OPTIONS refuses (a benchmark's `--cpu-prof`). */
  productNodeArgs?: string[];
  /** The credentials the stack runs with; by default those kept in `<dataDir>/local-secrets.json` (made if absent). */
  secrets?: LocalSecrets;
  /** The tenants of generated secrets (default: `demo`). */
  tenantIds?: string[];
  /** Settings for the provider simulator (SIM_*). */
  simulatorEnv?: Record<string, string>;
  /** The dev server (default), or the Temporal cluster on PostgreSQL that production runs (docs/deployment.md). */
  temporal?: TemporalKind;
  /** Leave out processes a test wants to run itself. */
  without?: Array<'worker' | 'api'>;
  report: (line: string) => void;
  /**
   * Hears about a process that died after it was ready and is not restarted (it crashed too often); one that dies
   * while starting makes startStack reject.
   */
  onUnexpectedExit?: (name: string, code: number | null, logTail: string) => void;
  /** How a crashed process is restarted (default DEFAULT_RESTART_POLICY); `false` only reports crashes. */
  restart?: RestartPolicy | false;
  /** Hears about each restart, so the operator sees it in the terminal and not only in the log. */
  onRestart?: (name: string, code: number | null, delayMs: number, crashesInWindow: number) => void;
  /** Aborting (Ctrl-C during start-up) stops whatever has started; startStack then rejects once all is stopped. */
  signal?: AbortSignal;
}

export interface Stack {
  urls: { api: string; temporal: string; temporalUi?: string; s3: string; simulator: string; ledger: string };
  namespace: string;
  temporalKind: TemporalKind;
  /** The cluster's PostgreSQL (temporalKind `cluster`): fault tests create their own cluster's databases on it. */
  postgres?: PostgresAddress;
  /** The environment the worker and API run with; tests start extra workers with it. */
  productEnv: Record<string, string>;
  /** The tenants', reviewers' and operators' credentials in productEnv, for printing and for clients. */
  secrets: LocalSecrets;
  processes: Map<string, ManagedProcess>;
  /** Each product process's Prometheus endpoint by process name (api, worker-interactive, …); each has its own port. */
  metricsUrls: Record<string, string>;
  startWorker(name: string, extraEnv?: Record<string, string>): Promise<ManagedProcess>;
  startApi(extraEnv?: Record<string, string>): Promise<ManagedProcess>;
  stop(): Promise<void>;
}

const S3_ACCESS_KEY = 'slowlane';
const S3_SECRET_KEY = 'slowlane-local-secret';
const REPO_ROOT = join(__dirname, '..', '..');
const TSX = ['--import', 'tsx'];

/** Brings up the whole local stack (docs/architecture.md), each part only after its dependencies answer. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const { dataDir, report } = options;
  let { ports } = options;
  const temporalConfig = loadTemporalDevConfig();
  const temporalKind = options.temporal ?? 'dev';
  const [temporalBin, versitygwBin] = await Promise.all([
    ensureGoTool(TEMPORAL_CLI, options.toolCacheDir, options.pathEnv, report),
    ensureGoTool(VERSITYGW, options.toolCacheDir, options.pathEnv, report),
    // The simulator transcribes audio with pocketsphinx and reads recordings with ffprobe.
    ensureSpeechTools(report),
  ]);
  let postgres: PostgresAddress | undefined;
  await Promise.all(['temporal', 's3', 'ledger', 'logs'].map((dir) => mkdir(join(dataDir, dir), { recursive: true })));

  const host = '127.0.0.1';
  // The cluster's frontend must sit below 32768 (freeClusterPort); a port chosen by the caller is kept.
  if (temporalKind === 'cluster' && ports.temporal > 32_767) ports = { ...ports, temporal: await freeClusterPort() };
  const urls: Stack['urls'] = {
    api: `http://${host}:${ports.api}`,
    temporal: `${host}:${ports.temporal}`,
    // The server alone serves no Web UI (that is the separate ui-server); only the dev server bundles one.
    ...(ports.temporalUi && temporalKind === 'dev' ? { temporalUi: `http://${host}:${ports.temporalUi}` } : {}),
    s3: `http://${host}:${ports.s3}`,
    simulator: `http://${host}:${ports.simulator}`,
    ledger: `http://${host}:${ports.ledger}`,
  };
  const secrets = options.secrets ?? (await loadOrCreateLocalSecrets(dataDir, options.tenantIds));
  const productEnv: Record<string, string> = {
    ...LOCAL_MODE_ENV,
    ...localSecretsEnv(secrets),
    SLOWLANE_DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: urls.temporal,
    TEMPORAL_NAMESPACE: temporalConfig.namespace,
    TEMPORAL_WEB_UI_URL: urls.temporalUi ?? `http://${host}:8233`,
    S3_ENDPOINT: urls.s3,
    S3_ACCESS_KEY_ID: S3_ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: S3_SECRET_KEY,
    ANTHROPIC_BASE_URL: urls.simulator,
    // The simulator also answers the embeddings provider's API, on the same port.
    EMBEDDINGS_BASE_URL: urls.simulator,
    // And the speech-to-text provider's (OpenAI's `POST /v1/audio/transcriptions`).
    SPEECH_BASE_URL: urls.simulator,
    LEDGER_URL: urls.ledger,
    API_HOST: host,
    API_PORT: String(ports.api),
    API_PUBLIC_URL: urls.api,
    PAYLOAD_CODEC_KEYS: process.env.PAYLOAD_CODEC_KEYS ?? (await localCodecKeys(dataDir)),
    ...options.productEnv,
  };
  options.signal?.throwIfAborted();
  const supervisor = new Supervisor(join(dataDir, 'logs'), {
    ...(options.onUnexpectedExit ? { onUnexpectedExit: options.onUnexpectedExit } : {}),
    ...(options.onRestart ? { onRestart: options.onRestart } : {}),
    ...(options.restart === false ? {} : { restart: options.restart ?? DEFAULT_RESTART_POLICY }),
  });
  const stopOnAbort = () => void supervisor.stopAll();
  options.signal?.addEventListener('abort', stopOnAbort, { once: true });
  const processes = new Map<string, ManagedProcess>();
  const started = (managed: ManagedProcess) => {
    processes.set(managed.name, managed);
    return managed;
  };
  const httpOk = (url: string) => async () => (await fetch(url)).ok;

  try {
    const startDevServer = () =>
      supervisor
        .start({
          name: 'temporal',
          command: temporalBin,
          args: devServerArgs(temporalConfig, {
            port: ports.temporal,
            ...(ports.temporalUi ? { uiPort: ports.temporalUi } : {}),
            // The Web UI decodes payloads through the API's codec endpoint, so it still shows readable inputs.
            codecEndpoint: `${urls.api}/codec`,
            dataDir,
          }),
          ready: () => temporalReady(urls.temporal, temporalConfig.namespace),
          readyTimeoutMs: 120_000,
        })
        .then(started)
        .then(async () => {
          const added = await applyNamespaceSettings(urls.temporal, temporalConfig);
          if (added.length > 0) report(`registered search attributes: ${added.join(', ')}`);
          report(`temporal   ${urls.temporal} (namespace ${temporalConfig.namespace})`);
        });
    const startCluster = () =>
      startPostgresTemporal({
        supervisor,
        dataDir,
        frontendPort: ports.temporal,
        devConfig: temporalConfig,
        toolCacheDir: options.toolCacheDir,
        pathEnv: options.pathEnv,
        report,
        onStarted: started,
      }).then((temporal) => {
        postgres = temporal.postgres;
        report(`temporal   ${urls.temporal} (cluster on PostgreSQL: frontend, history, matching, worker; namespace ${temporalConfig.namespace})`);
      });
    await allStarted([
      temporalKind === 'cluster' ? startCluster() : startDevServer(),
      supervisor
        .start({
          name: 's3',
          command: versitygwBin,
          // Without --keep-alive versitygw closes every connection after one answer, so each S3 request paid a new
          // TCP connection on both sides (docs/testing.md, backfill).
          args: ['--port', `${host}:${ports.s3}`, '--keep-alive', '--quiet', 'posix', join(dataDir, 's3')],
          env: { ROOT_ACCESS_KEY_ID: S3_ACCESS_KEY, ROOT_SECRET_ACCESS_KEY: S3_SECRET_KEY },
          // Any HTTP answer (403 to an anonymous request) means it serves.
          ready: async () => (await fetch(urls.s3)).status > 0,
        })
        .then(started)
        .then(async () => {
          const s3 = { endpoint: urls.s3, region: 'us-east-1', accessKeyId: S3_ACCESS_KEY, secretAccessKey: new Secret(S3_SECRET_KEY), forcePathStyle: true };
          await ensureBucket(createS3Client(s3), 'slowlane');
          report(`s3         ${urls.s3} (versitygw, bucket slowlane)`);
        }),
      supervisor
        .start({
          name: 'simulator',
          command: process.execPath,
          args: [...TSX, join(REPO_ROOT, 'local', 'simulator', 'main.ts')],
          env: { SIM_HOST: host, SIM_PORT: String(ports.simulator), ...options.simulatorEnv },
          ready: httpOk(`${urls.simulator}/healthz`),
        })
        .then(started)
        .then(() => report(`simulator  ${urls.simulator} (Anthropic Messages API, embeddings, speech-to-text)`)),
      supervisor
        .start({
          name: 'ledger',
          command: process.execPath,
          args: [...TSX, join(REPO_ROOT, 'local', 'ledger', 'main.ts')],
          env: { LEDGER_HOST: host, LEDGER_PORT: String(ports.ledger), LEDGER_DATA_DIR: join(dataDir, 'ledger') },
          ready: httpOk(`${urls.ledger}/healthz`),
        })
        .then(started)
        .then(() => report(`ledger     ${urls.ledger}`)),
    ]);

    // Every process gets a free port of its own for /metrics unless the caller chose one (docs/operations.md).
    const metricsUrls: Record<string, string> = {};
    const withMetricsPort = async (name: string, variable: string, extraEnv: Record<string, string>) => {
      const port = extraEnv[variable] ?? String(await freePort());
      metricsUrls[name] = `http://${host}:${port}/metrics`;
      return { ...extraEnv, [variable]: port };
    };
    const startWorker = async (name: string, extraEnv: Record<string, string> = {}) => {
      extraEnv = await withMetricsPort(name, 'WORKER_METRICS_PORT', extraEnv);
      const managed = await supervisor.start({
        name,
        command: process.execPath,
        args: [...(options.productNodeArgs ?? []), ...TSX, join(REPO_ROOT, 'workers', 'main.ts')],
        env: { ...productEnv, ...extraEnv },
        // Ready once the server sees this very process polling; log levels and old log lines cannot fool it.
        ready: async ({ pid }) => workerIsPolling(urls.temporal, temporalConfig.namespace, pid),
        readyTimeoutMs: 120_000,
      });
      return started(managed);
    };
    const startApi = async (extraEnv: Record<string, string> = {}) => {
      extraEnv = await withMetricsPort('api', 'API_METRICS_PORT', extraEnv);
      return started(
        await supervisor.start({
          name: 'api',
          command: process.execPath,
          args: [...(options.productNodeArgs ?? []), ...TSX, join(REPO_ROOT, 'api', 'main.ts')],
          env: { ...productEnv, ...extraEnv },
          ready: httpOk(`${urls.api}/readyz`),
        }),
      );
    };
    const without = new Set(options.without ?? []);
    await allStarted([
      // One worker process per priority queue, as in production: a backfill cannot take the interactive slots.
      ...(without.has('worker')
        ? []
        : PRIORITIES.map((priority) =>
            startWorker(`worker-${priority}`, { WORKER_PRIORITIES: priority }).then(() =>
              report(`worker     ${priority} queue`),
            ),
          )),
      without.has('api') ? undefined : startApi().then(() => report(`api        ${urls.api}`)),
    ]);

    return {
      urls,
      namespace: temporalConfig.namespace,
      temporalKind,
      ...(postgres ? { postgres } : {}),
      productEnv,
      secrets,
      processes,
      metricsUrls,
      startWorker,
      startApi,
      stop: () => supervisor.stopAll(),
    };
  } catch (error) {
    await supervisor.stopAll();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', stopOnAbort);
  }
}

/** Like Promise.all, but waits for every start to settle first, so a failure never leaves a half-started process behind. */
async function allStarted(starts: Array<Promise<unknown> | undefined>): Promise<void> {
  const results = await Promise.allSettled(starts);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
