import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from './ports';
import { reapOnExit } from './reaper';
import { ensureRedis } from './tools';

export interface LocalRedis {
  url: string;
  /** Where the append-only file lives. */
  dataDir: string;
  client(): Redis;
  /** Stops the server and starts it again on the same port and data: what a pod restart does. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A private redis-server on a free loopback port: the shared token budget and spend totals of the tests and of the
 * benchmark. It persists as production must (an append-only file, fsynced every second) into `dataDir`, a fresh
 * temporary folder unless given, so a restart keeps the spend totals (docs/deployment.md).
 * Installs Debian's redis-server first when it is missing (stack/tools.ts).
 */
export async function startLocalRedis(options: { dataDir?: string; appendOnly?: boolean } = {}): Promise<LocalRedis> {
  const binary = await ensureRedis(process.env.PATH ?? '', (line) => console.log(`[redis] ${line}`));
  const port = await freePort();
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'slowlane-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  const appendOnly = options.appendOnly ?? true;
  let stopChild = await spawnRedis(binary, port, dataDir, url, appendOnly);
  const clients: Redis[] = [];
  return {
    url,
    dataDir,
    client() {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    },
    async restart() {
      await stopChild();
      stopChild = await spawnRedis(binary, port, dataDir, url, appendOnly);
    },
    async stop() {
      for (const client of clients) client.disconnect();
      await stopChild();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const STOP_GRACE_MS = 10_000;

/** Starts redis-server and waits until it answers; resolves to a function that stops it. */
async function spawnRedis(binary: string, port: number, dataDir: string, url: string, appendOnly: boolean): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dataDir, '--save', '', '--appendonly', appendOnly ? 'yes' : 'no', '--appendfsync', 'everysec'],
    { stdio: 'ignore' },
  );
  reapOnExit(child, { group: false });
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stopChild = () =>
    new Promise<void>((resolve) => {
      if (gone() || spawnError) return resolve();
      // SIGTERM: Redis flushes the append-only file before it exits, as on a pod's graceful stop. It may refuse
      // (while it writes a first AOF), so it is killed after a grace period, as Kubernetes would.
      const grace = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(grace);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    for (let tries = 0; ; tries++) {
      try {
        await probe.connect();
        // A restarted server answers LOADING while it replays the append-only file.
        await probe.ping();
        break;
      } catch (error) {
        if (spawnError || gone()) {
          throw new Error(`redis-server did not start: ${spawnError?.message ?? `exit ${child.exitCode}`}`, { cause: error });
        }
        if (tries > 100) throw error;
        probe.disconnect();
        await delay(50);
      }
    }
  } catch (error) {
    await stopChild();
    throw error;
  } finally {
    probe.disconnect();
  }
  return stopChild;
}
