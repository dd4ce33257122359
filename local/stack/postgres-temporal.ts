import { join } from 'node:path';
import { initPostgres, LOCAL_POSTGRES_PASSWORD, LOCAL_POSTGRES_USER, type PostgresAddress, postgresProcessSpec } from './postgres-server';
import { freePort } from './ports';
import type { ManagedProcess, Supervisor } from './supervisor';
import { startTemporalCluster, type TemporalCluster } from './temporal-cluster';
import type { TemporalDevConfig } from './temporal-dev-config';
import { ensureTemporalServerTools } from './temporal-server-tools';
import { ensurePostgres } from './tools';

/** Which Temporal the stack runs: the CLI's dev server (SQLite), or the server's services on PostgreSQL. */
export const TEMPORAL_KINDS = ['dev', 'cluster'] as const;
export type TemporalKind = (typeof TEMPORAL_KINDS)[number];

export interface PostgresTemporalOptions {
  supervisor: Supervisor;
  dataDir: string;
  frontendPort: number;
  devConfig: TemporalDevConfig;
  toolCacheDir: string;
  pathEnv: string;
  report: (line: string) => void;
  onStarted?: (managed: ManagedProcess) => void;
}

export interface PostgresTemporal {
  cluster: TemporalCluster;
  postgres: PostgresAddress;
}

/** A private PostgreSQL in `<dataDir>/postgres` and the Temporal cluster on it (config in `<dataDir>/temporal-cluster`). */
export async function startPostgresTemporal(options: PostgresTemporalOptions): Promise<PostgresTemporal> {
  const { dataDir, report } = options;
  const [postgresBinDir, tools] = await Promise.all([
    ensurePostgres(report),
    ensureTemporalServerTools(options.toolCacheDir, options.pathEnv, report),
  ]);
  const postgres: PostgresAddress = { host: '127.0.0.1', port: await freePort(), user: LOCAL_POSTGRES_USER, password: LOCAL_POSTGRES_PASSWORD };
  const postgresDir = join(dataDir, 'postgres');
  await initPostgres(postgresBinDir, postgresDir, postgres);
  options.onStarted?.(await options.supervisor.start(await postgresProcessSpec(postgresBinDir, postgresDir, postgres)));
  report(`postgres   ${postgres.host}:${postgres.port} (PostgreSQL 15, data in ${postgresDir})`);
  const cluster = await startTemporalCluster({
    supervisor: options.supervisor,
    dir: join(dataDir, 'temporal-cluster'),
    postgres,
    databases: { temporal: 'temporal', visibility: 'temporal_visibility' },
    tools,
    devConfig: options.devConfig,
    frontendPort: options.frontendPort,
    ...(options.onStarted ? { onStarted: options.onStarted } : {}),
  });
  return { cluster, postgres };
}
