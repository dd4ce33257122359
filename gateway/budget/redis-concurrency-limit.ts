import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { budgetUnavailableOr } from '../../lib/redis-unavailable';
import type { ConcurrencyLease, ConcurrencyLimit } from './concurrency-limit';

/**
 * One sorted set per pool, a member per lease scored by its expiry, on Redis's own clock so hosts with skewed clocks
 * agree. Dropping the lapsed leases, counting and adding happen in one script, so two workers cannot both take the
 * last slot.
 */
const ACQUIRE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`;

const COUNT_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])
`;

export class RedisConcurrencyLimit implements ConcurrencyLimit {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly limit: number,
    private readonly keyPrefix: string,
  ) {}

  private key(pool: string): string {
    // The braces keep a pool on one Redis Cluster slot, as the token budget's keys do.
    return `${this.keyPrefix}:{${pool}}:in-flight`;
  }

  async acquire(pool: string, holdMs: number): Promise<ConcurrencyLease | undefined> {
    const id = randomUUID();
    try {
      const granted = await this.redis.eval(ACQUIRE_SCRIPT, 1, this.key(pool), this.limit, Math.ceil(holdMs), id);
      return granted === 1 ? { pool, id } : undefined;
    } catch (error) {
      throw budgetUnavailableOr(error, 'concurrency limit');
    }
  }

  async release(lease: ConcurrencyLease): Promise<void> {
    try {
      await this.redis.zrem(this.key(lease.pool), lease.id);
    } catch (error) {
      throw budgetUnavailableOr(error, 'concurrency limit');
    }
  }

  async inFlight(pool: string): Promise<number> {
    return Number(await this.redis.eval(COUNT_SCRIPT, 1, this.key(pool)));
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
