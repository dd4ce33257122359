import { stringify } from 'yaml';
import type { PostgresAddress } from './postgres-server';

/** The server's services; each runs as a process of its own in the cluster. */
export const CLUSTER_SERVICES = ['history', 'matching', 'frontend', 'worker'] as const;
export type ClusterService = (typeof CLUSTER_SERVICES)[number];

export interface ClusterPorts {
  /** gRPC port per service; the frontend's is the address clients use. */
  grpc: Record<ClusterService, number>;
  /** Membership (ringpop) port per service. */
  membership: Record<ClusterService, number>;
}

export interface ClusterConfigInput {
  /** The loopback address every service binds to and announces. */
  host: string;
  postgres: PostgresAddress;
  /** Persistence and visibility databases. */
  databases: { temporal: string; visibility: string };
  numHistoryShards: number;
  ports: ClusterPorts;
  logLevel: string;
  dynamicConfigFile: string;
}

/**
 * The server's static config (what `temporal-server --config <dir> --env <name>` reads), shaped after the
 * server module's config/development-postgres12.yaml: PostgreSQL for persistence and SQL advanced visibility,
 * every service bound to loopback. No metrics or pprof listener: four processes would fight over one port.
 */
export function clusterConfig(input: ClusterConfigInput): Record<string, unknown> {
  const { postgres } = input;
  const datastore = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${postgres.host}:${postgres.port}`,
      connectProtocol: 'tcp',
      user: postgres.user,
      password: postgres.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const frontendAddress = `${input.host}:${input.ports.grpc.frontend}`;
  return {
    log: { stdout: true, level: input.logLevel, format: 'json' },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: input.numHistoryShards,
      datastores: { default: datastore(input.databases.temporal, 10), visibility: datastore(input.databases.visibility, 4) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: input.host } },
    services: Object.fromEntries(
      CLUSTER_SERVICES.map((service) => [
        service,
        { rpc: { grpcPort: input.ports.grpc[service], membershipPort: input.ports.membership[service], bindOnLocalHost: true } },
      ]),
    ),
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: frontendAddress } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: input.dynamicConfigFile, pollInterval: '10s' },
  };
}

/** temporal-dev.yaml's dynamicConfig in the file format the server reads (a list of constrained values per key). */
export function clusterDynamicConfig(settings: Record<string, unknown>): Record<string, Array<{ value: unknown }>> {
  return Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, [{ value }]]));
}

export function toYaml(value: unknown): string {
  return stringify(value);
}
