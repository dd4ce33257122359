import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { PostgresAddress } from './postgres-server';
import { portIsFree } from './ports';
import type { ManagedProcess, Supervisor } from './supervisor';
import {
  CLUSTER_SERVICES,
  type ClusterPorts,
  type ClusterService,
  clusterConfig,
  clusterDynamicConfig,
  toYaml,
} from './temporal-cluster-config';
import type { TemporalServerTools } from './temporal-server-tools';
import { applyNamespaceSettings, temporalReady } from './temporal-setup';
import type { TemporalDevConfig } from './temporal-dev-config';

const execFileAsync = promisify(execFile);
const HOST = '127.0.0.1';
const CONFIG_ENV = 'cluster';
/** Several shards, as in production, so workflows spread over history shards (the dev server runs one). */
export const NUM_HISTORY_SHARDS = 4;

export interface TemporalClusterOptions {
  supervisor: Supervisor;
  /** Where the generated config lives; kept across runs with its database. */
  dir: string;
  postgres: PostgresAddress;
  databases: { temporal: string; visibility: string };
  tools: TemporalServerTools;
  /** Namespace, retention, search attributes, dynamic config and log level: the same file the dev server uses. */
  devConfig: TemporalDevConfig;
  /** Below 32768, like every cluster port (freeClusterPort). */
  frontendPort: number;
  /** Hears about every service process started (and started again). */
  onStarted?: (managed: ManagedProcess) => void;
}

export interface TemporalCluster {
  /** The frontend, where clients and workers connect. */
  address: string;
  processes: Map<ClusterService, ManagedProcess>;
  /** SIGKILL these services (no restart follows): a crash, with nothing flushed but what PostgreSQL committed. */
  kill(services: readonly ClusterService[]): Promise<void>;
  /** Starts these services again on the same database and config, history first. */
  start(services: readonly ClusterService[]): Promise<void>;
}

/**
 * The Temporal server as production runs it: `temporal-server` on PostgreSQL (persistence and SQL advanced
 * visibility, schemas applied by temporal-sql-tool), several history shards, and frontend, history, matching and
 * the internal worker as separate processes. The namespace and search attributes are registered as on the dev server.
 */
export async function startTemporalCluster(options: TemporalClusterOptions): Promise<TemporalCluster> {
  const { supervisor, dir, devConfig } = options;
  await mkdir(join(dir, 'config'), { recursive: true });
  await applySchemas(options);
  const ports: ClusterPorts = { grpc: await servicePorts(), membership: await servicePorts() };
  ports.grpc.frontend = options.frontendPort;
  const dynamicConfigFile = join(dir, 'dynamicconfig.yaml');
  await writeFile(dynamicConfigFile, toYaml(clusterDynamicConfig(devConfig.dynamicConfig)));
  const config = clusterConfig({
    host: HOST,
    postgres: options.postgres,
    databases: options.databases,
    numHistoryShards: NUM_HISTORY_SHARDS,
    ports,
    logLevel: devConfig.logLevel,
    dynamicConfigFile,
  });
  await writeFile(join(dir, 'config', `${CONFIG_ENV}.yaml`), toYaml(config));

  const address = `${HOST}:${options.frontendPort}`;
  const processes = new Map<ClusterService, ManagedProcess>();
  const startService = async (service: ClusterService) => {
    const managed = await supervisor.start({
      name: `temporal-${service}`,
      command: options.tools.server,
      args: ['--root', dir, '--config', 'config', '--env', CONFIG_ENV, '--allow-no-auth', 'start', '--service', service],
      ready: () => serviceReady(service),
      readyTimeoutMs: 120_000,
    });
    processes.set(service, managed);
    options.onStarted?.(managed);
  };
  // The internal worker serves no gRPC, only membership; the others are up once their gRPC port answers.
  const serviceReady = (service: ClusterService) => {
    if (service === 'frontend') return frontendServes(address);
    return accepts(service === 'worker' ? ports.membership.worker : ports.grpc[service]);
  };
  const start = async (services: readonly ClusterService[]) => {
    // History first and alone: services starting together race to write the cluster metadata on a new database.
    if (services.includes('history')) await startService('history');
    await Promise.all(services.filter((service) => service !== 'history').map(startService));
  };
  const kill = async (services: readonly ClusterService[]) => {
    for (const service of services) {
      const managed = processes.get(service);
      if (!managed) continue;
      await managed.kill();
      supervisor.forget(managed);
      processes.delete(service);
    }
  };

  await start(CLUSTER_SERVICES);
  await ensureNamespace(address, devConfig);
  return { address, processes, kill, start };
}

/** Creates the databases once, then brings both schemas to the versions this server ships (idempotent). */
async function applySchemas(options: TemporalClusterOptions): Promise<void> {
  const { postgres, tools } = options;
  const sql = (database: string, ...args: string[]) =>
    execFileAsync(
      tools.sqlTool,
      ['--plugin', 'postgres12', '--ep', postgres.host, '-p', String(postgres.port), '-u', postgres.user, '--db', database, ...args],
      { env: { ...process.env, SQL_PASSWORD: postgres.password }, maxBuffer: 16 * 1024 * 1024 },
    );
  const schemas = [
    { database: options.databases.temporal, folder: 'temporal' },
    { database: options.databases.visibility, folder: 'visibility' },
  ];
  for (const { database, folder } of schemas) {
    const created = join(options.dir, `${database}.created`);
    if (!existsSync(created)) {
      await sql(database, 'create');
      await sql(database, 'setup-schema', '-v', '0.0');
      await writeFile(created, new Date().toISOString());
    }
    await sql(database, 'update-schema', '-d', join(tools.postgresSchemaDir, folder, 'versioned'));
  }
}

/** Registers the namespace with its retention if it is new, then the search attributes (as on the dev server). */
async function ensureNamespace(address: string, devConfig: TemporalDevConfig): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService
      .registerNamespace({ namespace: devConfig.namespace, workflowExecutionRetentionPeriod: msToTs(devConfig.retentionMs) })
      .catch((error: unknown) => {
        // gRPC ALREADY_EXISTS: a cluster started again on its database.
        if ((error as { code?: number }).code !== 6) throw error;
      });
  } finally {
    await connection.close();
  }
  await applyNamespaceSettings(address, devConfig);
  const deadline = Date.now() + 30_000;
  while (!(await temporalReady(address, devConfig.namespace).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`namespace ${devConfig.namespace} is not served by ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function frontendServes(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    await connection.workflowService.getSystemInfo({});
    return true;
  } finally {
    await connection.close();
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function servicePorts(): Promise<Record<ClusterService, number>> {
  const entries = [];
  for (const service of CLUSTER_SERVICES) entries.push([service, await freeClusterPort()] as const);
  return Object.fromEntries(entries) as Record<ClusterService, number>;
}

const taken = new Set<number>();

/**
 * A free loopback port for a cluster service. The server records each service's port in a PostgreSQL smallint
 * (cluster_membership.rpc_port), so ports from the OS's ephemeral range (32768 and up) crash it at start.
 */
export async function freeClusterPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port) || !(await portIsFree(port))) continue;
    taken.add(port);
    return port;
  }
  throw new Error('no free port between 20000 and 32000 on 127.0.0.1');
}
