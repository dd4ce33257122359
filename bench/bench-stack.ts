import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../lib/config';
import { dataConverterFor } from '../lib/payload-codec/data-converter';
import { localPaths } from '../local/stack/local-paths';
import { generateLocalSecrets } from '../local/stack/local-secrets';
import { freeStackPorts, type Stack, type StackOptions, startStack } from '../local/stack/stack';

export interface BenchStack {
  stack: Stack;
  /** The run's own folder (logs, the dev server's database); removed by `stop`. */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A private local stack for one benchmark run, as every benchmark wants it: its own folder and free loopback ports,
 * fresh credentials (the product has no demo keys), quiet product logs and no metrics endpoint. `options` adds to or
 * overrides any of that (the simulator's latency, the Temporal server, processes left out).
 */
export async function startBenchStack(name: string, options: Partial<StackOptions> = {}): Promise<BenchStack> {
  const dataDir = await mkdtemp(join(tmpdir(), `slowlane-bench-${name}-`));
  try {
    const stack = await startStack({
      dataDir,
      ports: await freeStackPorts(),
      toolCacheDir: localPaths().toolCacheDir,
      secrets: generateLocalSecrets(),
      pathEnv: process.env.PATH ?? '',
      report: () => undefined,
      ...options,
      productEnv: { LOG_LEVEL: 'warn', METRICS_ENABLED: 'false', ...options.productEnv },
    });
    return {
      stack,
      dataDir,
      async stop() {
        await stack.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The Temporal servers a benchmark can run against (`--temporal`). */
export const BENCH_SERVERS: Record<string, Partial<StackOptions>> = {
  // The dev server on its SQLite file, as `npm start` runs it.
  dev: {},
  // The production shape: the server's own services on PostgreSQL (local/stack/postgres-temporal.ts).
  postgres: { temporal: 'cluster' },
};

/** The model answers at once: the stack's own cost is what a run measures. */
export const ZERO_LATENCY_MODEL: Record<string, string> = { SIM_LATENCY_BASE_MS: '0', SIM_LATENCY_PER_OUTPUT_TOKEN_MS: '0' };

/** A client of the stack's namespace that reads its payloads: the stack's workers encrypt them with its codec keys. */
export async function connectBenchClient(stack: Stack): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({ address: stack.urls.temporal });
  const dataConverter = dataConverterFor(loadConfig(stack.productEnv).temporal);
  return { connection, client: new Client({ connection, namespace: stack.namespace, dataConverter }) };
}
