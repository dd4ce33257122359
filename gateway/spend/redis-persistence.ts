import type { Redis } from 'ioredis';
import type { Deployment } from '../../lib/settings/setting';
import type { Logger } from '../../lib/logger';

/** How a deployment vouches for its Redis keeping the spend totals across a restart (SPEND_REDIS_PERSISTENCE). */
export type RedisPersistence = 'checked' | 'managed';

export class RedisNotPersistentError extends Error {
  override readonly name = 'RedisNotPersistentError';
}

/**
 * Spend totals and batch holds live in Redis: a Redis without an append-only file forgets every tenant's daily and
 * monthly spend when it restarts, and the caps start again from zero. So in production the worker refuses to start
 * unless `CONFIG GET appendonly` says yes, or the deployment declares a managed Redis (which persists but often
 * disables CONFIG). Elsewhere (the local stack, tests) a missing AOF is only logged.
 */
export async function checkRedisPersistence(
  redis: Pick<Redis, 'config'>,
  settings: { deployment: Deployment; persistence: RedisPersistence },
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<void> {
  if (settings.persistence === 'managed') {
    log.info({ component: 'spend-caps' }, 'spend Redis declared managed (SPEND_REDIS_PERSISTENCE=managed): its persistence is not checked');
    return;
  }
  let appendonly: string | undefined;
  let unreadable: unknown;
  try {
    const reply = (await redis.config('GET', 'appendonly')) as unknown as string[];
    appendonly = reply[1];
  } catch (error) {
    unreadable = error;
  }
  if (appendonly === 'yes') return;
  const problem =
    unreadable === undefined
      ? `the spend Redis runs without an append-only file (appendonly ${appendonly ?? 'unset'}): a restart would zero every tenant's spend totals. Run it with --appendonly yes (deploy/k8s/redis.yaml)`
      : `the spend Redis's persistence could not be read (CONFIG GET appendonly: ${String(unreadable)}). If it is a managed Redis that persists and disables CONFIG, set SPEND_REDIS_PERSISTENCE=managed`;
  if (settings.deployment === 'production') throw new RedisNotPersistentError(`${problem} (docs/deployment.md)`);
  log.warn({ component: 'spend-caps' }, problem);
}
