import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Priority } from '../../common/task-queues';
import { budgetUnavailableOr } from '../../lib/redis-unavailable';
import {
  type CallCost,
  DEFAULT_INTERACTIVE_DECAY_MS,
  DIMENSIONS,
  type Dimension,
  type PoolState,
  type Taken,
  type Wait,
} from './bucket-math';
import { BUDGET_SCRIPT } from './redis-budget-script';
import {
  type BudgetSettings,
  limitsOf,
  type ProviderObservation,
  type Reservation,
  type ReserveResult,
  type TokenBudget,
} from './token-budget';

const SCRIPT_SHA = createHash('sha1').update(BUDGET_SCRIPT).digest('hex');
/** A pool nobody touched for this long is dropped; it comes back full, as an idle provider bucket would be. */
const IDLE_TTL_MS = 10 * 60_000;

export interface RedisBudgetOptions {
  /** Prefix of the pools' keys; one per deployment sharing a provider key. */
  keyPrefix?: string;
  /**
   * Where "now" comes from. Unset: Redis's own clock, so worker hosts with skewed clocks still agree. Tests
   * inject one to replay a scenario exactly.
   */
  now?: () => number;
}

/**
 * The fleet's budget in Redis: every worker process runs the same Lua script (redis-budget-script.ts) against
 * one hash per pool, atomically. Chosen over a rate-limit library because none we know of has both weighted
 * takes that are settled afterwards and a reserved share per class; the script is small and tested against
 * the in-process arithmetic.
 */
export class RedisBudget implements TokenBudget {
  readonly kind = 'redis';
  private readonly keyPrefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly settings: BudgetSettings,
    private readonly options: RedisBudgetOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'slowlane:budget';
  }

  private key(pool: string): string {
    // The braces keep a pool on one Redis Cluster slot.
    return `${this.keyPrefix}:{${pool}}`;
  }

  private async run(pool: string, op: string, args: Array<string | number>): Promise<string[]> {
    const limits = limitsOf(pool, this.settings);
    const argv = [
      op,
      this.options.now ? String(this.options.now()) : '',
      limits.inputTokensPerMinute,
      limits.outputTokensPerMinute,
      limits.requestsPerMinute,
      this.settings.interactiveShare,
      IDLE_TTL_MS,
      this.settings.interactiveIdleShare ?? this.settings.interactiveShare,
      this.settings.interactiveDecayMs ?? DEFAULT_INTERACTIVE_DECAY_MS,
      ...args,
    ].map(String);
    try {
      try {
        return (await this.redis.evalsha(SCRIPT_SHA, 1, this.key(pool), ...argv)) as string[];
      } catch (error) {
        // A restarted Redis has forgotten the script.
        if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
        return (await this.redis.eval(BUDGET_SCRIPT, 1, this.key(pool), ...argv)) as string[];
      }
    } catch (error) {
      throw budgetUnavailableOr(error, 'token budget');
    }
  }

  async reserve(pool: string, priority: Priority, cost: CallCost): Promise<ReserveResult> {
    const reply = await this.run(pool, 'reserve', [priority, ...costArgs(cost)]);
    if (reply[0] !== 'granted') return { granted: false, ...waitOf(reply) } as ReserveResult;
    const numbers = reply.slice(1).map(Number);
    const taken = {} as Taken;
    DIMENSIONS.forEach((dimension, index) => {
      taken[dimension] = { reserve: numbers[index * 2] ?? 0, shared: numbers[index * 2 + 1] ?? 0 };
    });
    return { granted: true, reservation: { pool, priority, cost, taken } };
  }

  async settle(reservation: Reservation, used: CallCost): Promise<void> {
    const taken = DIMENSIONS.flatMap((dimension) => [
      reservation.taken[dimension].reserve,
      reservation.taken[dimension].shared,
    ]);
    await this.run(reservation.pool, 'settle', [reservation.priority, ...taken, ...costArgs(used)]);
  }

  async observe(pool: string, observation: ProviderObservation): Promise<void> {
    const readings = DIMENSIONS.flatMap((dimension) => {
      const reading = observation.readings[dimension];
      return [reading?.limit ?? '', reading?.remaining ?? ''];
    });
    await this.run(pool, 'observe', [...readings, observation.pauseMs ?? '']);
  }

  async wait(pool: string, priority: Priority, cost: CallCost): Promise<Wait> {
    return waitOf(await this.run(pool, 'wait', [priority, ...costArgs(cost)]));
  }

  /** The pool's stored state (after no refill), for tests and the capacity command. */
  async snapshot(pool: string): Promise<PoolState | undefined> {
    const hash = await this.redis.hgetall(this.key(pool));
    if (hash.t === undefined) return undefined;
    const per = (prefix: string) =>
      Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, Number(hash[`${prefix}_${dimension}`])])) as Record<
        Dimension,
        number
      >;
    const learned = Object.fromEntries(
      DIMENSIONS.map((dimension) => {
        const value = hash[`l_${dimension}`];
        return [dimension, value === undefined ? null : Number(value)];
      }),
    ) as Record<Dimension, number | null>;
    return {
      reserve: per('r'),
      shared: per('s'),
      updatedAt: Number(hash.t),
      pausedUntil: Number(hash.p),
      learnedLimit: learned,
      interactiveSeenAt: hash.i === undefined ? null : Number(hash.i),
    };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

function costArgs(cost: CallCost): number[] {
  return DIMENSIONS.map((dimension) => cost[dimension]);
}

function waitOf(reply: string[]): Wait {
  const limitedBy = reply[2];
  if (!limitedBy) return { waitMs: 0 };
  return { waitMs: Number(reply[1]), limitedBy: limitedBy as Wait['limitedBy'] };
}
