import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from './ports';
import { reapOnExit } from './reaper';
import { ensureRedis } from './tools';

export interface LocalRedis {
  url: string;
  client(): Redis;
  stop(): Promise<void>;
}

/**
 * A private redis-server on a free loopback port, without persistence: the shared token budget of the tests and
 * of the benchmark.
 * Installs Debian's redis-server first when it is missing (stack/tools.ts).
 */
export async function startLocalRedis(): Promise<LocalRedis> {
  const binary = await ensureRedis(process.env.PATH ?? '', (line) => console.log(`[redis] ${line}`));
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  reapOnExit(child, { group: false });
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stopChild = () =>
    new Promise<void>((resolve) => {
      if (gone() || spawnError) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const url = `redis://127.0.0.1:${port}`;
  const clients: Redis[] = [];
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    for (let tries = 0; ; tries++) {
      try {
        await probe.connect();
        await probe.ping();
        break;
      } catch (error) {
        if (spawnError || gone()) {
          throw new Error(`redis-server did not start: ${spawnError?.message ?? `exit ${child.exitCode}`}`, { cause: error });
        }
        if (tries > 100) throw error;
        await delay(50);
      }
    }
  } catch (error) {
    await stopChild();
    throw error;
  } finally {
    probe.disconnect();
  }
  return {
    url,
    client() {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.disconnect();
      await stopChild();
    },
  };
}
