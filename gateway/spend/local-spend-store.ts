import { randomUUID } from 'node:crypto';
import { HOLD_TTL_MS, type HoldResult, type KeyedHold, type SpendHold, type SpendStore, type SpentTotals } from './spend-store';
import { type SpendCaps, windowsAt } from './spend-windows';
import { refusalOf } from './spend-refusal';

interface TenantSpend {
  /** Settled USD by window key (`2026-12-03`, `2026-12`); old keys are dropped as windows turn. */
  spent: Map<string, number>;
  holds: Map<string, { usd: number; expiresAt: number }>;
}

/** The spend of a single process: right for one worker, or for tests; a fleet needs the Redis store. */
export class InProcessSpendStore implements SpendStore {
  readonly kind = 'in-process';
  private readonly tenants = new Map<string, TenantSpend>();

  private tenant(tenantId: string, now: number): TenantSpend {
    let spend = this.tenants.get(tenantId);
    if (!spend) {
      spend = { spent: new Map(), holds: new Map() };
      this.tenants.set(tenantId, spend);
    }
    for (const [id, hold] of spend.holds) if (hold.expiresAt <= now) spend.holds.delete(id);
    const current = new Set(windowsAt(now, {}).map((window) => window.key));
    for (const key of spend.spent.keys()) if (!current.has(key)) spend.spent.delete(key);
    return spend;
  }

  async hold(tenantId: string, caps: SpendCaps, usd: number, now: number, keyed?: KeyedHold): Promise<HoldResult> {
    const spend = this.tenant(tenantId, now);
    const existing = keyed && spend.holds.get(keyed.id);
    if (keyed && existing) return { granted: true, hold: { tenantId, id: keyed.id, usd: existing.usd } };
    const held = [...spend.holds.values()].reduce((sum, hold) => sum + hold.usd, 0);
    const refusal = refusalOf(windowsAt(now, caps), (key) => (spend.spent.get(key) ?? 0) + held, usd);
    if (refusal) return refusal;
    const hold: SpendHold = { tenantId, id: keyed?.id ?? randomUUID(), usd };
    spend.holds.set(hold.id, { usd, expiresAt: now + (keyed?.ttlMs ?? HOLD_TTL_MS) });
    return { granted: true, hold };
  }

  async settleHeld(hold: SpendHold, usd: number, now: number): Promise<SpentTotals | undefined> {
    if (!this.tenant(hold.tenantId, now).holds.has(hold.id)) return undefined;
    return this.settle(hold, usd, now);
  }

  async settle(hold: SpendHold, usd: number, now: number): Promise<SpentTotals> {
    const spend = this.tenant(hold.tenantId, now);
    spend.holds.delete(hold.id);
    const [day, month] = windowsAt(now, {});
    spend.spent.set(day.key, (spend.spent.get(day.key) ?? 0) + usd);
    spend.spent.set(month.key, (spend.spent.get(month.key) ?? 0) + usd);
    return { day: spend.spent.get(day.key) ?? 0, month: spend.spent.get(month.key) ?? 0 };
  }

  async close(): Promise<void> {}
}
