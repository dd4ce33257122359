import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { freePort } from '../../local/stack/ports';
import type { ManagedProcess, Supervisor } from '../../local/stack/supervisor';
import { freeClusterPort, startTemporalCluster, type TemporalCluster } from '../../local/stack/temporal-cluster';
import { devServerArgs, loadTemporalDevConfig } from '../../local/stack/temporal-dev-config';
import { ensureTemporalServerTools } from '../../local/stack/temporal-server-tools';
import { applyNamespaceSettings, temporalReady } from '../../local/stack/temporal-setup';
import { localPaths } from '../../local/stack/local-paths';
import { ensureGoTool, TEMPORAL_CLI } from '../../local/stack/tools';
import { testEnv } from './test-env';

/**
 * A Temporal server of the kind the test stack runs, private to one test file so it may be killed: the dev server
 * on its SQLite file, or the cluster on its own databases in the stack's PostgreSQL (the `cluster` tier).
 */
export interface RestartableTemporal {
  address: string;
  /** SIGKILL the server (the dev server; the cluster's frontend and history): nothing flushed but what the database committed. */
  kill(): Promise<void>;
  /** Starts what kill() stopped, on the same database. */
  restart(): Promise<void>;
}

const toolCacheDir = () => localPaths().toolCacheDir;
const quiet = () => undefined;

export async function startRestartableTemporal(supervisor: Supervisor, dataDir: string): Promise<RestartableTemporal> {
  return testEnv().temporalKind === 'cluster' ? startCluster(supervisor, dataDir) : startDevServer(supervisor, dataDir);
}

async function startDevServer(supervisor: Supervisor, dataDir: string): Promise<RestartableTemporal> {
  const devConfig = loadTemporalDevConfig();
  const binary = await ensureGoTool(TEMPORAL_CLI, toolCacheDir(), process.env.PATH ?? '', quiet);
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  let running: ManagedProcess | undefined;
  const start = async () => {
    running = await supervisor.start({
      name: 'temporal',
      command: binary,
      args: devServerArgs(devConfig, { port, dataDir }),
      ready: () => temporalReady(address, devConfig.namespace),
      readyTimeoutMs: 60_000,
    });
    await applyNamespaceSettings(address, devConfig);
  };
  await start();
  return {
    address,
    async kill() {
      assert.ok(running, 'the dev server is not running');
      await running.kill();
      supervisor.forget(running);
      running = undefined;
    },
    restart: start,
  };
}

// Frontend and history hold the server's state in flight; matching and the internal worker stay up, as they
// would while one deployment of the other services is replaced.
const KILLED_SERVICES = ['frontend', 'history'] as const;

async function startCluster(supervisor: Supervisor, dataDir: string): Promise<RestartableTemporal> {
  const { postgres } = testEnv();
  assert.ok(postgres, 'the cluster tier passes its PostgreSQL to the tests');
  const tools = await ensureTemporalServerTools(toolCacheDir(), process.env.PATH ?? '', quiet);
  const database = `fault_${randomUUID().slice(0, 8)}`;
  const cluster: TemporalCluster = await startTemporalCluster({
    supervisor,
    dir: join(dataDir, 'temporal-cluster'),
    postgres,
    databases: { temporal: database, visibility: `${database}_visibility` },
    tools,
    devConfig: loadTemporalDevConfig(),
    frontendPort: await freeClusterPort(),
  });
  return {
    address: cluster.address,
    kill: () => cluster.kill(KILLED_SERVICES),
    restart: () => cluster.start(KILLED_SERVICES),
  };
}
