import { SlowlaneError, TenantSpendCapReachedError } from '../../common/errors';
import type { Usage } from '../../common/job';
import type { Logger } from '../../lib/logger';
import type { PendingSettlementLog } from './pending-settlements';
import { createSpendSettler, type SpendSettler } from './spend-settler';
import type { HoldResult, SpendHold, SpendStore, SpentTotals } from './spend-store';
import type { SpendCaps, SpendWindow } from './spend-windows';

/** What the caps tell whoever listens (metrics). Listeners must not throw. */
export type SpendEvent =
  | { type: 'spent'; tenantId: string; costUsd: number; totals: SpentTotals }
  | { type: 'refused'; tenantId: string; window: SpendWindow; capUsd: number; spentUsd: number }
  /** A paid call's settle failed; its cost is recorded and settled later (a `spent` event then). */
  | { type: 'deferred'; tenantId: string; costUsd: number };

export interface TenantSpendDeps {
  store: SpendStore;
  /** Per tenant id; a tenant without an entry has no cap and its calls are still counted. */
  caps: Readonly<Record<string, SpendCaps>>;
  onEvent?: (event: SpendEvent) => void;
  /** Where settlements the store did not take wait (S3 in a worker); in memory without it. */
  pending?: PendingSettlementLog;
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** One paid call as the caps see it: the most it can cost, the call, and what it really cost. */
export interface PaidCall<T> {
  /** An upper bound of the call's cost in USD: what the call holds, and counts if it is never settled. */
  mostItCosts: () => number;
  run: () => Promise<T>;
  costOf: (result: T) => number;
}

/**
 * The one implementation of "check the cap, then record what it cost", shared by every paid door (the model
 * gateway, the embeddings gateway): a call runs only when the most it can cost fits the tenant's caps
 * (SpendStore.hold), then its hold is settled to its real cost, whether it answered or failed but was billed.
 * A settle the store fails is deferred, never thrown (gateway/spend/spend-settler.ts): the call was paid, and a
 * failed activity would be retried and paid again.
 * A refused call never runs; it throws TenantSpendCapReachedError, whose details say when the window turns, and
 * the workflow waits for that (JobRun.withSpendCapWaits).
 */
export interface TenantSpend {
  spend<T>(tenantId: string, call: PaidCall<T>): Promise<T>;
  /**
   * The same admission for a call answered later, elsewhere (a batch entry): holds the most it can cost under the
   * caller's id for `ttlMs`, or throws TenantSpendCapReachedError as `spend` does. Holding again under the same id
   * (a retried activity) returns the hold already there.
   */
  holdFor(tenantId: string, hold: { id: string; ttlMs: number; mostItCosts: () => number }): Promise<SpendHold>;
  /**
   * Settles such a hold to the call's real cost (0: never billed), once per id (SETTLED_KEPT_MS), whether or not the
   * hold is still held: an entry the provider billed counts even if its hold expired or was lost with Redis. Never
   * throws; a settle the store fails is deferred like a live call's.
   */
  settleKeyed(hold: SpendHold, costUsd: number): Promise<void>;
  /** Settles what was deferred; the worker starts and stops it (spend-from-config.ts). */
  readonly settler: SpendSettler;
}

export function createTenantSpend(deps: TenantSpendDeps): TenantSpend {
  const emit = (event: SpendEvent) => deps.onEvent?.(event);
  const settler = createSpendSettler({
    store: deps.store,
    ...(deps.pending ? { pending: deps.pending } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    onSettled: (hold, costUsd, totals) => emit({ type: 'spent', tenantId: hold.tenantId, costUsd, totals }),
    onDeferred: (hold, costUsd) => emit({ type: 'deferred', tenantId: hold.tenantId, costUsd }),
  });
  /** The hold, or the refusal every paid door throws alike (the workflow waits on its details). */
  const grantedOrThrow = (tenantId: string, held: HoldResult): SpendHold => {
    if (held.granted) return held.hold;
    emit({ type: 'refused', tenantId, window: held.window, capUsd: held.capUsd, spentUsd: held.spentUsd });
    const resumesAt = new Date(held.resumesAt).toISOString();
    throw new TenantSpendCapReachedError(
      `tenant ${tenantId} has spent ${held.spentUsd.toFixed(4)} of its ${held.window === 'day' ? 'daily' : 'monthly'} cap of ${held.capUsd} USD; the job waits until ${resumesAt} or the cap is raised`,
      { details: { spendCap: { window: held.window, capUsd: held.capUsd, spentUsd: held.spentUsd, resumesAt } } },
    );
  };
  return {
    settler,
    async holdFor(tenantId, { id, ttlMs, mostItCosts }) {
      const caps = deps.caps[tenantId] ?? {};
      return grantedOrThrow(tenantId, await deps.store.hold(tenantId, caps, mostItCosts(), { id, ttlMs }));
    },

    async settleKeyed(hold, costUsd) {
      await settler.settle(hold, costUsd);
    },

    async spend(tenantId, call) {
      const caps = deps.caps[tenantId] ?? {};
      // Held at its estimate whether or not the tenant has a cap: should its worker die before the settle, the
      // hold's expiry counts that much (SpendStore), as the provider may have billed the call.
      const hold = grantedOrThrow(tenantId, await deps.store.hold(tenantId, caps, call.mostItCosts()));
      let result: Awaited<ReturnType<typeof call.run>>;
      try {
        result = await call.run();
      } catch (error) {
        await settler.settle(hold, billedCostOf(error));
        throw error;
      }
      await settler.settle(hold, call.costOf(result));
      return result;
    },
  };
}

/** A failed call the provider billed anyway (a refusal) says so in its details (gateway/model-gateway.ts). */
export function billedCostOf(error: unknown): number {
  if (!(error instanceof SlowlaneError)) return 0;
  const billed = error.details?.billedUsage as Usage | undefined;
  return billed?.costUsd ?? 0;
}
