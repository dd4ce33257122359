import type { Priority } from '../../common/task-queues';
import type { CallCost, PerDimension, PoolLimits, PoolSettings, ProviderReading, Taken, Wait } from './bucket-math';

/** Models without their own limits share this pool: safe (never above the provider), if conservative. */
export const DEFAULT_POOL = '*';

export interface BudgetSettings {
  /** Limits per pool: a model's own name, or DEFAULT_POOL for every model without an entry. */
  pools: Record<string, PoolLimits>;
  /** Share of every dimension that only interactive calls may use while they are being made (0 ≤ share < 1). */
  interactiveShare: number;
  /** The reserve once interactive calls stop; unset: a fixed reserve (bucket-math.ts, reserveShare). */
  interactiveIdleShare?: number;
  interactiveDecayMs?: number;
}

/** One pool's settings out of the budget's. */
export function poolSettingsOf(pool: string, settings: BudgetSettings): PoolSettings {
  const { interactiveShare, interactiveIdleShare, interactiveDecayMs } = settings;
  return {
    limits: limitsOf(pool, settings),
    interactiveShare,
    ...(interactiveIdleShare !== undefined ? { interactiveIdleShare } : {}),
    ...(interactiveDecayMs !== undefined ? { interactiveDecayMs } : {}),
  };
}

export function poolFor(model: string, settings: BudgetSettings): string {
  return model !== DEFAULT_POOL && settings.pools[model] ? model : DEFAULT_POOL;
}

export function limitsOf(pool: string, settings: BudgetSettings): PoolLimits {
  const limits = settings.pools[pool] ?? settings.pools[DEFAULT_POOL];
  if (!limits) throw new Error(`no limits configured for pool ${pool} and no default pool`);
  return limits;
}

export interface Reservation {
  pool: string;
  priority: Priority;
  cost: CallCost;
  taken: Taken;
}

export type ReserveResult =
  | { granted: true; reservation: Reservation }
  | { granted: false; waitMs: number; limitedBy: NonNullable<Wait['limitedBy']> };

/** What a provider response told us: its view of each bucket, and a pause when it answered 429. */
export interface ProviderObservation {
  readings: Partial<PerDimension<ProviderReading>>;
  /** Nobody in the fleet calls this pool for this long (a 429's retry-after), measured on the budget's clock. */
  pauseMs?: number;
}

/**
 * The fleet's token budget. Reserve before a call, settle to the real usage after, tell it what the provider
 * said. Implementations: in-process (one worker process) and Redis (every worker process shares one budget).
 */
export interface TokenBudget {
  readonly kind: 'in-process' | 'redis';
  reserve(pool: string, priority: Priority, cost: CallCost): Promise<ReserveResult>;
  settle(reservation: Reservation, used: CallCost): Promise<void>;
  observe(pool: string, observation: ProviderObservation): Promise<void>;
  /** How long until the class could afford `cost`, without taking anything (for pacing polls). */
  wait(pool: string, priority: Priority, cost: CallCost): Promise<Wait>;
  close(): Promise<void>;
}
