import type { Priority } from '../../common/task-queues';

/**
 * The arithmetic of one budget pool, with no I/O: the in-process budget runs it directly and the Redis Lua
 * script (redis-budget-script.ts) is a line-by-line translation, so both behave the same (the parity test runs
 * one scenario against both).
 *
 * A pool has three dimensions like the provider's limits — input tokens, output tokens and requests per
 * minute — each a continuously refilling bucket that holds at most one minute's allowance. Each bucket is
 * split in two: a reserve only interactive calls may draw (`share` of the capacity) and a shared part both
 * classes draw. Refill is split the same way, and whatever one part cannot hold overflows into the other, so
 * the pool as a whole refills at the provider's rate; idle interactive capacity flows to bulk and back.
 * Levels may go negative: a call that used more than it reserved, or a provider that reports less remaining
 * than we thought, leaves a debt that refill pays off first.
 */

export type Dimension = 'input' | 'output' | 'requests';
export const DIMENSIONS: readonly Dimension[] = ['input', 'output', 'requests'];
export type PerDimension<T> = Record<Dimension, T>;

/** Per-minute limits of one pool, as the provider states them. */
export interface PoolLimits {
  inputTokensPerMinute: number;
  outputTokensPerMinute: number;
  requestsPerMinute: number;
}

/** What a call costs or used, in each dimension. */
export type CallCost = PerDimension<number>;

export interface PoolState {
  /** Interactive-only reserve level per dimension. */
  reserve: PerDimension<number>;
  /** Shared level per dimension. */
  shared: PerDimension<number>;
  updatedAt: number;
  /** Epoch ms before which no call may go out (the provider answered 429 with retry-after). */
  pausedUntil: number;
  /** The provider's own limit per dimension, when its headers told us one below the configured limit. */
  learnedLimit: PerDimension<number | null>;
  /** When an interactive call last asked for tokens (epoch ms); null: never, the reserve is at its idle share. */
  interactiveSeenAt: number | null;
}

/** What a granted call took from each part, so settling can give back exactly what it did not use. */
export type Taken = PerDimension<{ reserve: number; shared: number }>;

export type Admission =
  { granted: true; taken: Taken } | { granted: false; waitMs: number; limitedBy: Dimension | 'paused' };

export interface PoolSettings {
  limits: PoolLimits;
  /** Share of each dimension reserved for interactive calls while they are being made (0 ≤ share < 1). */
  interactiveShare: number;
  /**
   * The reserve once no interactive call has asked for a while (≤ interactiveShare; unset: interactiveShare, a
   * fixed reserve). Kept above zero so the first interactive call after a quiet spell finds tokens at once.
   */
  interactiveIdleShare?: number;
  /** Time constant of the reserve's shrinking back to the idle share after the last interactive call (ms). */
  interactiveDecayMs?: number;
}

/** Used when PoolSettings.interactiveDecayMs is unset. */
export const DEFAULT_INTERACTIVE_DECAY_MS = 30_000;

/**
 * The interactive reserve's share now: the full share from the moment an interactive call asks, relaxing toward
 * the idle share with the decay's time constant once none asks. So bulk spends nearly all of a budget interactive
 * leaves idle, and the reserve is back as soon as interactive work is.
 */
export function reserveShare(settings: PoolSettings, state: PoolState, now: number): number {
  const busy = settings.interactiveShare;
  const idle = Math.min(busy, settings.interactiveIdleShare ?? busy);
  if (state.interactiveSeenAt === null) return idle;
  const quiet = Math.max(0, now - state.interactiveSeenAt);
  const decayMs = Math.max(1, settings.interactiveDecayMs ?? DEFAULT_INTERACTIVE_DECAY_MS);
  return idle + (busy - idle) * Math.exp(-quiet / decayMs);
}

const MS_PER_MINUTE = 60_000;

export function configuredCapacity(limits: PoolLimits, dimension: Dimension): number {
  if (dimension === 'input') return limits.inputTokensPerMinute;
  if (dimension === 'output') return limits.outputTokensPerMinute;
  return limits.requestsPerMinute;
}

/** The configured limit, or the provider's when it reported a lower one. */
export function capacity(settings: PoolSettings, state: PoolState, dimension: Dimension): number {
  const configured = configuredCapacity(settings.limits, dimension);
  const learned = state.learnedLimit[dimension];
  return learned !== null && learned < configured ? learned : configured;
}

export function newPoolState(settings: PoolSettings, now: number): PoolState {
  const reserve = {} as PerDimension<number>;
  const shared = {} as PerDimension<number>;
  const share = Math.min(settings.interactiveShare, settings.interactiveIdleShare ?? settings.interactiveShare);
  for (const dimension of DIMENSIONS) {
    const cap = configuredCapacity(settings.limits, dimension);
    reserve[dimension] = cap * share;
    shared[dimension] = cap - reserve[dimension];
  }
  return {
    reserve,
    shared,
    updatedAt: now,
    pausedUntil: 0,
    learnedLimit: { input: null, output: null, requests: null },
    interactiveSeenAt: null,
  };
}

/** Moves what one part cannot hold into the other; the total never exceeds the capacity. */
function overflow(state: PoolState, dimension: Dimension, cap: number, share: number): void {
  const reserveCap = cap * share;
  const sharedCap = cap - reserveCap;
  if (state.reserve[dimension] > reserveCap) {
    state.shared[dimension] += state.reserve[dimension] - reserveCap;
    state.reserve[dimension] = reserveCap;
  }
  if (state.shared[dimension] > sharedCap) {
    state.reserve[dimension] = Math.min(reserveCap, state.reserve[dimension] + state.shared[dimension] - sharedCap);
    state.shared[dimension] = sharedCap;
  }
}

export function refill(settings: PoolSettings, state: PoolState, now: number): void {
  const elapsed = Math.max(0, now - state.updatedAt);
  const share = reserveShare(settings, state, now);
  for (const dimension of DIMENSIONS) {
    const cap = capacity(settings, state, dimension);
    const added = (cap / MS_PER_MINUTE) * elapsed;
    state.reserve[dimension] += added * share;
    state.shared[dimension] += added * (1 - share);
    overflow(state, dimension, cap, share);
  }
  state.updatedAt = Math.max(state.updatedAt, now);
}

/** How much of the pool a class may ever hold: bulk never sees the interactive reserve. */
function classCapacity(cap: number, share: number, priority: Priority): number {
  return priority === 'interactive' ? cap : cap * (1 - share);
}

function available(state: PoolState, dimension: Dimension, priority: Priority): number {
  const shared = Math.max(0, state.shared[dimension]);
  return priority === 'interactive' ? Math.max(0, state.reserve[dimension]) + shared : shared;
}

/** The rate at which what this class may use grows, per ms (an estimate: it changes as parts fill up). */
function availableRefillPerMs(
  state: PoolState,
  dimension: Dimension,
  cap: number,
  share: number,
  priority: Priority,
): number {
  const perMs = cap / MS_PER_MINUTE;
  const reserveFull = state.reserve[dimension] >= cap * share;
  if (priority === 'interactive') return perMs * (1 - share) + (state.reserve[dimension] >= 0 ? perMs * share : 0);
  return perMs * (1 - share) + (reserveFull ? perMs * share : 0);
}

/** How long until the class could take `cost`; 0 when it can now. */
export interface Wait {
  waitMs: number;
  limitedBy?: Dimension | 'paused';
}

/**
 * Whether the class could take `cost` now and, if not, how long until it could. A cost larger than all the
 * class may ever hold is admitted once that part is full (and leaves a debt), so it is slow, never stuck.
 * Changes the state only by refilling it.
 */
export function admission(
  settings: PoolSettings,
  state: PoolState,
  cost: CallCost,
  priority: Priority,
  now: number,
): Wait {
  refill(settings, state, now);
  const share = reserveShare(settings, state, now);
  let waitMs = 0;
  let limitedBy: Dimension | 'paused' | undefined;
  for (const dimension of DIMENSIONS) {
    const cap = capacity(settings, state, dimension);
    const needed = Math.min(cost[dimension], classCapacity(cap, share, priority));
    const missing = needed - available(state, dimension, priority);
    if (missing <= 0) continue;
    const wait = missing / availableRefillPerMs(state, dimension, cap, share, priority);
    if (wait > waitMs) {
      waitMs = wait;
      limitedBy = dimension;
    }
  }
  if (state.pausedUntil > now && state.pausedUntil - now >= waitMs) {
    waitMs = state.pausedUntil - now;
    limitedBy = 'paused';
  }
  return limitedBy === undefined ? { waitMs: 0 } : { waitMs: Math.ceil(waitMs), limitedBy };
}

/** Interactive calls draw their reserve first, then the shared part; bulk draws only the shared part. */
function take(state: PoolState, cost: CallCost, priority: Priority): Taken {
  const taken = {} as Taken;
  for (const dimension of DIMENSIONS) {
    const fromReserve =
      priority === 'interactive' ? Math.min(cost[dimension], Math.max(0, state.reserve[dimension])) : 0;
    const fromShared = cost[dimension] - fromReserve;
    state.reserve[dimension] -= fromReserve;
    state.shared[dimension] -= fromShared;
    taken[dimension] = { reserve: fromReserve, shared: fromShared };
  }
  return taken;
}

/**
 * An interactive call asks: the reserve returns to its full share at once, taking what the shared part holds
 * beyond its new cap (bulk's unspent tokens) before the call is judged.
 */
function noteInteractive(settings: PoolSettings, state: PoolState, now: number): void {
  refill(settings, state, now);
  state.interactiveSeenAt = now;
  const share = reserveShare(settings, state, now);
  for (const dimension of DIMENSIONS) overflow(state, dimension, capacity(settings, state, dimension), share);
}

/** Reserves `cost` when the class can afford it now; otherwise says how long to wait and takes nothing. */
export function reserve(
  settings: PoolSettings,
  state: PoolState,
  cost: CallCost,
  priority: Priority,
  now: number,
): Admission {
  if (priority === 'interactive') noteInteractive(settings, state, now);
  const wait = admission(settings, state, cost, priority, now);
  if (wait.limitedBy !== undefined) return { granted: false, waitMs: wait.waitMs, limitedBy: wait.limitedBy };
  return { granted: true, taken: take(state, cost, priority) };
}

/**
 * Turns a reservation into what the call really used. Unused tokens go back to the part they came from,
 * shared first, which is where they would have been drawn last had the estimate been exact; a call that used
 * more than it reserved draws the difference like a new reservation of its class, even into debt.
 */
export function settle(
  settings: PoolSettings,
  state: PoolState,
  taken: Taken,
  used: CallCost,
  priority: Priority,
  now: number,
): void {
  refill(settings, state, now);
  const extra = { input: 0, output: 0, requests: 0 };
  for (const dimension of DIMENSIONS) {
    const part = taken[dimension];
    const difference = used[dimension] - (part.reserve + part.shared);
    if (difference > 0) {
      extra[dimension] = difference;
      continue;
    }
    const refund = -difference;
    const toShared = Math.min(refund, part.shared);
    state.shared[dimension] += toShared;
    state.reserve[dimension] += refund - toShared;
    overflow(state, dimension, capacity(settings, state, dimension), reserveShare(settings, state, now));
  }
  take(state, extra, priority);
}

/** What the provider's rate-limit headers said about one dimension. */
export interface ProviderReading {
  limit?: number;
  remaining?: number;
}

/**
 * Lines the pool up with the provider, whose limits may move mid-run (another application on the same key, a
 * changed tier). A limit below the configured one is adopted and one back up is followed, never past the
 * configured limit. A lower limit shrinks both parts to their new caps; a higher one adds the rise to the shared
 * part, as the provider's bucket gains it, but only when the same reading says what is left, which then bounds it
 * (a provider that does not add the rise says so in that remaining). When the provider has fewer tokens left than
 * we think (another client on the same key, a lowered limit, clock drift) the difference is drained, shared part
 * first so interactive keeps its reserve as long as possible; below zero (an overdrawn provider bucket, read from
 * its reset time) the rest is a debt on the shared part that refill pays off before anything is granted.
 */
export function observe(
  settings: PoolSettings,
  state: PoolState,
  readings: Partial<PerDimension<ProviderReading>>,
  now: number,
): void {
  refill(settings, state, now);
  const share = reserveShare(settings, state, now);
  for (const dimension of DIMENSIONS) {
    const reading = readings[dimension];
    if (!reading) continue;
    if (reading.limit !== undefined && reading.limit > 0) {
      const before = capacity(settings, state, dimension);
      state.learnedLimit[dimension] = reading.limit;
      const cap = capacity(settings, state, dimension);
      if (cap > before && reading.remaining !== undefined) state.shared[dimension] += cap - before;
      overflow(state, dimension, cap, share);
      // A smaller limit shrinks both parts; the overflow step cannot do that when both are over their caps.
      state.reserve[dimension] = Math.min(state.reserve[dimension], cap * share);
      state.shared[dimension] = Math.min(state.shared[dimension], cap * (1 - share));
    }
    if (reading.remaining !== undefined) {
      const excess = state.reserve[dimension] + state.shared[dimension] - reading.remaining;
      if (excess <= 0) continue;
      const fromShared = Math.min(excess, Math.max(0, state.shared[dimension]));
      const fromReserve = Math.min(excess - fromShared, Math.max(0, state.reserve[dimension]));
      state.reserve[dimension] -= fromReserve;
      state.shared[dimension] -= excess - fromReserve;
    }
  }
}

/** No call leaves before `until` (a 429's retry-after); a later pause wins over an earlier one. */
export function pause(state: PoolState, until: number): void {
  state.pausedUntil = Math.max(state.pausedUntil, until);
}
