import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalRedis } from '../../local/stack/redis-server';

/** One Redis outage of the run: when it starts (after the chaos does) and how long the server stays dead. */
export interface RedisOutagePlan {
  afterMs: number;
  forMs: number;
}

export interface RedisOutage {
  at: number;
  /** From the SIGKILL until the restarted server answers a PING. */
  downMs: number;
}

/**
 * SIGKILLs the Redis behind every worker's token budget and spend totals at the planned moments and starts it again
 * on the same port after each outage. Nobody restarts a worker: the workers' clients reconnect by themselves.
 */
export async function runRedisOutages(
  redis: LocalRedis,
  plan: RedisOutagePlan[],
  say: (line: string) => void,
): Promise<RedisOutage[]> {
  const outages: RedisOutage[] = [];
  const startedAt = Date.now();
  for (const [index, outage] of plan.entries()) {
    await sleep(Math.max(0, startedAt + outage.afterMs - Date.now()));
    const at = Date.now();
    await redis.kill();
    say(`Redis outage ${index + 1}/${plan.length}: SIGKILL redis-server for ${outage.forMs / 1000} s`);
    await sleep(outage.forMs);
    await redis.restart();
    const downMs = Date.now() - at;
    outages.push({ at, downMs });
    say(`Redis answers again after ${(downMs / 1000).toFixed(1)} s`);
  }
  return outages;
}

/** Dead letters whose error came from Redis: the typed outage, or an ioredis error that escaped the typing. */
export function isRedisDeadLetter(error: { type: string; message: string }): boolean {
  return (
    error.type === 'BudgetUnavailableError' ||
    /MaxRetriesPerRequest|ReplyError|Connection is closed|ECONNREFUSED|redis/i.test(`${error.type} ${error.message}`)
  );
}
