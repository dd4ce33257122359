import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './ports';
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
  const url = `redis://127.0.0.1:${port}`;
  const clients: Redis[] = [];
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  for (let tries = 0; ; tries++) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (error) {
      if (tries > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  probe.disconnect();
  return {
    url,
    client() {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.disconnect();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}
