import assert from '../support/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { parse } from 'yaml';
import { CLUSTER_SERVICES, clusterConfig, clusterDynamicConfig, toYaml } from '../../local/stack/temporal-cluster-config';
import { freeClusterPort } from '../../local/stack/temporal-cluster';
import { loadTemporalDevConfig } from '../../local/stack/temporal-dev-config';
import { embeddedModuleVersion, TEMPORAL_SERVER_VERSION } from '../../local/stack/temporal-server-tools';
import { CLUSTER_TIER_FILES } from '../../local/stack/test-runner';
import { portIsFree } from '../../local/stack/ports';

const REPO_ROOT = join(__dirname, '..', '..');
const postgres = { host: '127.0.0.1', port: 25432, user: 'temporal', password: 'pw' };
const ports = {
  grpc: { history: 21001, matching: 21002, frontend: 21003, worker: 21004 },
  membership: { history: 22001, matching: 22002, frontend: 22003, worker: 22004 },
};

describe('the Temporal cluster on PostgreSQL', () => {
  const written = parse(
    toYaml(
      clusterConfig({
        host: '127.0.0.1',
        postgres,
        databases: { temporal: 'temporal', visibility: 'temporal_visibility' },
        numHistoryShards: 4,
        ports,
        logLevel: 'warn',
        dynamicConfigFile: '/tmp/dc.yaml',
      }),
    ),
  ) as {
    persistence: { numHistoryShards: number; datastores: Record<string, { sql: Record<string, unknown> }> } & Record<string, string>;
    services: Record<string, { rpc: { grpcPort: number; membershipPort: number } }>;
    clusterMetadata: { clusterInformation: { active: { rpcAddress: string } } };
  };

  test('when the config is written, then persistence and visibility both live in PostgreSQL, each in its own database', () => {
    const { persistence } = written;
    const stores = [persistence.defaultStore, persistence.visibilityStore].map((name) => persistence.datastores[name ?? '']?.sql);
    assert.deepEqual(
      stores.map((sql) => [sql?.pluginName, sql?.databaseName, sql?.connectAddr]),
      [
        ['postgres12', 'temporal', '127.0.0.1:25432'],
        ['postgres12', 'temporal_visibility', '127.0.0.1:25432'],
      ],
    );
    assert.equal(persistence.numHistoryShards, 4);
  });

  test('when the config is written, then every service has its own ports and the cluster names the frontend as its address', () => {
    assert.deepEqual(Object.keys(written.services).sort(), [...CLUSTER_SERVICES].sort());
    const all = Object.values(written.services).flatMap(({ rpc }) => [rpc.grpcPort, rpc.membershipPort]);
    assert.equal(new Set(all).size, CLUSTER_SERVICES.length * 2);
    assert.equal(written.clusterMetadata.clusterInformation.active.rpcAddress, '127.0.0.1:21003');
  });

  test('when temporal-dev.yaml has dynamic config, then the cluster gets every key as a value list', () => {
    const { dynamicConfig } = loadTemporalDevConfig();
    const converted = clusterDynamicConfig(dynamicConfig);
    assert.deepEqual(Object.keys(converted), Object.keys(dynamicConfig));
    for (const [key, value] of Object.entries(dynamicConfig)) assert.deepEqual(converted[key], [{ value }], key);
  });

  test('when a cluster port is picked, then it fits the smallint the server stores it in, and is free', async () => {
    const port = await freeClusterPort();
    assert.ok(port > 0 && port < 32_768, String(port));
    assert.ok(await portIsFree(port));
  });

  test('when go version -m lists the CLI, then the embedded server version is read and a longer module name is not mistaken for it', () => {
    const output = [
      '/cache/bin/temporal: go1.25.0',
      '\tpath\tgithub.com/temporalio/cli/cmd/temporal',
      '\tdep\tgo.temporal.io/server/extra\tv9.9.9\th1:x=',
      `\tdep\tgo.temporal.io/server\t${TEMPORAL_SERVER_VERSION}\th1:y=`,
    ].join('\n');
    assert.equal(embeddedModuleVersion(output, 'go.temporal.io/server'), TEMPORAL_SERVER_VERSION);
    assert.equal(embeddedModuleVersion(output, 'go.temporal.io/sdk'), undefined);
  });

  test('when the cluster tier is listed, then each of its files exists, so a rename cannot drop it silently', () => {
    assert.ok(CLUSTER_TIER_FILES.length >= 3);
    for (const file of CLUSTER_TIER_FILES) assert.ok(existsSync(join(REPO_ROOT, file)), file);
  });
});
