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
  /** Where the append-only file lives; empty when the server keeps nothing. */
  dataDir: string;
  client(): Redis;
  /** SIGKILL, as an outage: clients see refused connections (and reconnect on their own) until `restart`. */
  kill(): Promise<void>;
  /** The server again on the same port, and the same append-only file when it keeps one (stopped first if it runs). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;

export interface LocalRedisOptions {
  /**
   * Keep the append-only file in this folder, written through on every command, so a killed server comes back with
   * all of it (the chaos bench's spend totals). Unset: a fresh temporary folder, fsynced every second.
   */
  dataDir?: string;
  /** `false`: nothing persists, a restarted server starts empty (what production must not run). */
  appendOnly?: boolean;
}

/**
 * A private redis-server on a free loopback port: the shared token budget and spend totals of the tests and of the
 * benchmarks. It persists as production must (an append-only file) unless told not to, so a restart keeps the
 * spend totals (docs/deployment.md). Installs Debian's redis-server first when it is missing (stack/tools.ts).
 */
export async function startLocalRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  const binary = await ensureRedis(process.env.PATH ?? '', (line) => console.log(`[redis] ${line}`));
  const port = await freePort();
  const appendOnly = options.appendOnly ?? true;
  const ownDir = appendOnly && options.dataDir === undefined;
  const dataDir = !appendOnly ? '' : (options.dataDir ?? mkdtempSync(join(tmpdir(), 'slowlane-redis-')));
  const persistence = appendOnly
    ? ['--dir', dataDir, '--appendonly', 'yes', '--appendfsync', options.dataDir ? 'always' : 'everysec']
    : ['--appendonly', 'no'];
  const url = `redis://127.0.0.1:${port}`;
  const clients: Redis[] = [];
  let child: ChildProcess | undefined;
  /** Set by the spawned child's 'error' event; read through a function, which TypeScript's narrowing leaves alone. */
  const spawned: { error?: Error } = {};
  const spawnError = (): Error | undefined => spawned.error;
  const gone = (server: ChildProcess) => server.exitCode !== null || server.signalCode !== null;
  const stopChild = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      const server = child;
      if (!server || gone(server) || spawned.error) return resolve();
      // Redis may refuse SIGTERM (while it writes a first append-only file): killed after a grace, as Kubernetes does.
      const grace = signal === 'SIGKILL' ? undefined : setTimeout(() => server.kill('SIGKILL'), STOP_GRACE_MS);
      server.once('exit', () => {
        clearTimeout(grace);
        resolve();
      });
      server.kill(signal);
    });

  const startServer = async () => {
    delete spawned.error;
    const server = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
      stdio: 'ignore',
    });
    child = server;
    reapOnExit(server, { group: false });
    server.once('error', (error) => (spawned.error = error));
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      for (let tries = 0; ; tries++) {
        try {
          await probe.connect();
          await probe.ping();
          break;
        } catch (error) {
          const failed = spawnError();
          if (failed || gone(server)) {
            throw new Error(`redis-server did not start: ${failed ? failed.message : `exit ${server.exitCode}`}`, { cause: error });
          }
          if (tries > 100) throw error;
          // A restarted server answers LOADING while it replays its append-only file: a fresh connection tries again.
          probe.disconnect();
          await delay(50);
        }
      }
    } catch (error) {
      await stopChild('SIGTERM');
      throw error;
    } finally {
      probe.disconnect();
    }
  };

  await startServer();
  return {
    url,
    dataDir,
    client() {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    },
    kill: () => stopChild('SIGKILL'),
    async restart() {
      await stopChild('SIGTERM');
      await startServer();
    },
    async stop() {
      for (const client of clients) client.disconnect();
      await stopChild('SIGTERM');
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
