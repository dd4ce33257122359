import { randomUUID } from 'node:crypto';
import { ExpiryQueue } from './expiry-queue';
import {
  type DayTotals,
  DAYS_KEPT,
  HOLD_TTL_MS,
  type HoldResult,
  type KeyedHold,
  MONTHS_KEPT,
  SETTLED_KEPT_MS,
  type SettledTotals,
  type SpendHold,
  type SpendStore,
} from './spend-store';
import { type SpendCaps, windowsAt } from './spend-windows';
import { refusalOf } from './spend-refusal';

const DAY_MS = 24 * 60 * 60_000;

interface TenantSpend {
  /** Settled USD by window key (`2026-12-03`, `2026-12`), kept DAYS_KEPT days and MONTHS_KEPT months. */
  spent: Map<string, number>;
  holds: Map<string, { usd: number; expiresAt: number }>;
  /** The sum of `holds`, kept as holds come and go (the Redis script keeps the same). */
  held: number;
  expiries: ExpiryQueue;
  /** Settled hold ids by when, oldest first (settles come in clock order), so a repeated settle counts once. */
  settled: Map<string, number>;
  /** Holds that expired unsettled: what their expiry counted, and when, so a late settle replaces it. */
  expired: Map<string, { usd: number; at: number }>;
}

/**
 * The spend of a single process: right for one worker, or for tests; a fleet needs the Redis store. Its time is
 * its own clock (injected by tests), as Redis's is the Redis store's.
 */
export class InProcessSpendStore implements SpendStore {
  readonly kind = 'in-process';
  private readonly tenants = new Map<string, TenantSpend>();

  constructor(private readonly clock: () => number = Date.now) {}

  private tenant(tenantId: string, now: number): TenantSpend {
    let spend = this.tenants.get(tenantId);
    if (!spend) {
      spend = { spent: new Map(), holds: new Map(), held: 0, expiries: new ExpiryQueue(), settled: new Map(), expired: new Map() };
      this.tenants.set(tenantId, spend);
    }
    for (const due of spend.expiries.due(now)) {
      const hold = spend.holds.get(due.id);
      // A hold settled (or held again) since its entry was queued is not this entry's to expire.
      if (hold?.expiresAt !== due.at) continue;
      spend.holds.delete(due.id);
      spend.held -= hold.usd;
      // Its worker died, perhaps after the provider answered: counted at the most it could cost (as the Redis script).
      count(spend, now, hold.usd);
      spend.expired.set(due.id, { usd: hold.usd, at: now });
    }
    if (spend.holds.size === 0) spend.held = 0;
    for (const [id, at] of spend.settled) {
      if (at > now - SETTLED_KEPT_MS) break;
      spend.settled.delete(id);
    }
    for (const [id, { at }] of spend.expired) {
      if (at > now - SETTLED_KEPT_MS) break;
      spend.expired.delete(id);
    }
    return spend;
  }

  async hold(tenantId: string, caps: SpendCaps, usd: number, keyed?: KeyedHold): Promise<HoldResult> {
    const now = this.clock();
    const spend = this.tenant(tenantId, now);
    const existing = keyed && spend.holds.get(keyed.id);
    if (keyed && existing) return { granted: true, hold: { tenantId, id: keyed.id, usd: existing.usd } };
    const refusal = refusalOf(windowsAt(now, caps), (key) => (spend.spent.get(key) ?? 0) + Math.max(0, spend.held), usd);
    if (refusal) return refusal;
    const hold: SpendHold = { tenantId, id: keyed?.id ?? randomUUID(), usd };
    const expiresAt = now + (keyed?.ttlMs ?? HOLD_TTL_MS);
    spend.holds.set(hold.id, { usd, expiresAt });
    spend.held += usd;
    spend.expiries.push(hold.id, expiresAt);
    return { granted: true, hold };
  }

  async settle(hold: SpendHold, usd: number): Promise<SettledTotals> {
    const now = this.clock();
    const spend = this.tenant(hold.tenantId, now);
    const [day, month] = windowsAt(now, {});
    const repeated = spend.settled.has(hold.id);
    if (!repeated) {
      const held = spend.holds.get(hold.id);
      if (held) {
        spend.holds.delete(hold.id);
        spend.held -= held.usd;
      }
      const counted = spend.expired.get(hold.id)?.usd ?? 0;
      spend.expired.delete(hold.id);
      count(spend, now, usd - counted);
      spend.settled.set(hold.id, now);
    }
    return { day: spend.spent.get(day.key) ?? 0, month: spend.spent.get(month.key) ?? 0, ...(repeated ? { repeated } : {}) };
  }

  async totalsOn(tenantId: string, day: string): Promise<DayTotals> {
    const spend = this.tenant(tenantId, this.clock());
    return { day: spend.spent.get(day) ?? 0, month: spend.spent.get(day.slice(0, 7)) ?? 0, held: Math.max(0, spend.held) };
  }

  async close(): Promise<void> {}
}

/** Adds `usd` (negative: a late settle below what an expiry counted) to the windows `now` falls in. */
function count(spend: TenantSpend, now: number, usd: number): void {
  const [day, month] = windowsAt(now, {});
  if (!spend.spent.has(day.key)) forgetOldWindows(spend.spent, now);
  spend.spent.set(day.key, (spend.spent.get(day.key) ?? 0) + usd);
  spend.spent.set(month.key, (spend.spent.get(month.key) ?? 0) + usd);
}

/** Once a day per tenant, as in the Redis script: totals older than what reconciliation reads are dropped. */
function forgetOldWindows(spent: Map<string, number>, now: number): void {
  const oldestDay = new Date(now - DAYS_KEPT * DAY_MS).toISOString().slice(0, 10);
  const date = new Date(now);
  const oldestMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - MONTHS_KEPT, 1)).toISOString().slice(0, 7);
  for (const key of spent.keys()) {
    if (key.length === 10 ? key < oldestDay : key < oldestMonth) spent.delete(key);
  }
}
