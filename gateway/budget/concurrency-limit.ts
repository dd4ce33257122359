import { randomUUID } from 'node:crypto';

/** A slot of a concurrency limit, given back with release(); it lapses on its own after `holdMs`. */
export interface ConcurrencyLease {
  pool: string;
  id: string;
}

/**
 * Requests in flight at once to a provider, across the fleet. A slot is a lease with an expiry, so a worker that dies
 * mid-call frees its slot after `holdMs` (the request's own timeout and a margin) instead of holding it for ever.
 * Implementations: in-process (one worker) and Redis (every worker shares one count), like the token budget.
 */
export interface ConcurrencyLimit {
  readonly kind: 'in-process' | 'redis';
  /** A lease, or undefined when every slot is taken. */
  acquire(pool: string, holdMs: number): Promise<ConcurrencyLease | undefined>;
  release(lease: ConcurrencyLease): Promise<void>;
  /** Slots taken now (expired leases not counted), for tests and the capacity command. */
  inFlight(pool: string): Promise<number>;
  close(): Promise<void>;
}

/** One process's limit: right for one worker, or for tests; a fleet needs RedisConcurrencyLimit. */
export class InProcessConcurrencyLimit implements ConcurrencyLimit {
  readonly kind = 'in-process';
  private readonly pools = new Map<string, Map<string, number>>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  private live(pool: string): Map<string, number> {
    let leases = this.pools.get(pool);
    if (!leases) this.pools.set(pool, (leases = new Map()));
    const now = this.now();
    for (const [id, expiresAt] of leases) if (expiresAt <= now) leases.delete(id);
    return leases;
  }

  async acquire(pool: string, holdMs: number): Promise<ConcurrencyLease | undefined> {
    const leases = this.live(pool);
    if (leases.size >= this.limit) return undefined;
    const id = randomUUID();
    leases.set(id, this.now() + holdMs);
    return { pool, id };
  }

  async release(lease: ConcurrencyLease): Promise<void> {
    this.pools.get(lease.pool)?.delete(lease.id);
  }

  async inFlight(pool: string): Promise<number> {
    return this.live(pool).size;
  }

  async close(): Promise<void> {}
}
