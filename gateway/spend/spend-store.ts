import type { SpendCaps, SpendWindow } from './spend-windows';

/** USD held for a call in flight until it is settled to its real cost. */
export interface SpendHold {
  tenantId: string;
  /**
   * Unique per call. A hold nobody settled within its time to live (HOLD_TTL_MS: a worker killed after the call may
   * have been paid) counts as spent at its amount; a settle that comes later replaces that amount by the real cost.
   */
  id: string;
  usd: number;
}

/** Spent (settled calls only) in the windows `now` falls in. */
export interface SpentTotals {
  day: number;
  month: number;
}

/** A day's totals as reconciliation reads them, and what calls in flight hold now (not yet settled or expired). */
export interface DayTotals extends SpentTotals {
  held: number;
}

/** The totals after a settle; `repeated` when that hold id had been counted already, so this settle counted nothing. */
export interface SettledTotals extends SpentTotals {
  repeated?: true;
}

export type HoldResult =
  | { granted: true; hold: SpendHold }
  | {
      granted: false;
      /** The cap that refused: the month's when both do, since the day turning alone would not help. */
      window: SpendWindow;
      capUsd: number;
      /** Spent plus held by calls in flight, in that window. */
      spentUsd: number;
      /** Epoch ms when the window turns. */
      resumesAt: number;
    };

/**
 * A hold lives at most this long: longer than any model call (MODEL_REQUEST_TIMEOUT is 120 s by default, a heartbeat
 * timeout cancels a stuck one sooner), short enough that a killed worker's hold stops counting soon.
 */
export const HOLD_TTL_MS = 10 * 60_000;

/**
 * A keyed hold: its id is the caller's (a batch entry's custom id), so holding again under the same id returns the
 * hold already there instead of a second one (a retried activity), and it lives `ttlMs` instead of HOLD_TTL_MS.
 */
export interface KeyedHold {
  id: string;
  ttlMs: number;
}

/**
 * Each tenant's spend per UTC day and month, shared by the fleet. `hold` is atomic: it admits a call only when spent
 * + held + the call's estimate fits every cap, so concurrent calls can overshoot a cap only by what their real cost
 * exceeds their estimate (an estimate is an upper bound in output tokens, an estimate in input tokens). A window in
 * which nothing is spent or held admits one call whatever its estimate, or a call dearer than the cap would wait
 * forever. Implementations: in-process (one worker, tests) and Redis (the fleet), as for the token budget.
 *
 * The time is the store's own (Redis's TIME; the in-process store's clock), never the caller's: holds expire and
 * settles land in windows on one clock. A hold costs the same whatever the number of holds.
 */
export interface SpendStore {
  readonly kind: 'in-process' | 'redis';
  /** With `keyed`, a hold already held under that id is granted again as it is (its amount, not `usd`). */
  hold(tenantId: string, caps: SpendCaps, usd: number, keyed?: KeyedHold): Promise<HoldResult>;
  /**
   * Replaces the hold by the call's real cost, counted in the current windows, once per hold id: a settle repeated
   * (a retried settlement whose first answer was lost) counts nothing more, for SETTLED_KEPT_MS, and answers the
   * totals. A hold that expired meanwhile is counted all the same: the call was paid; what its expiry counted is
   * replaced by `usd`, not added to.
   */
  settle(hold: SpendHold, usd: number): Promise<SettledTotals>;
  /**
   * The settled totals of the UTC day `day` (`YYYY-MM-DD`) and of its month, kept about two months and 13 months,
   * and the USD held now by calls in flight.
   */
  totalsOn(tenantId: string, day: string): Promise<DayTotals>;
  close(): Promise<void>;
}

/**
 * How long a settled hold id is remembered, so a settlement retried within it counts once, and an expired hold's
 * amount, so a settlement deferred past its expiry replaces it (redis-spend-script.ts).
 */
export const SETTLED_KEPT_MS = 24 * 60 * 60_000;
/** Days and months of totals kept for reconciliation (redis-spend-script.ts keeps the same). */
export const DAYS_KEPT = 62;
export const MONTHS_KEPT = 13;
