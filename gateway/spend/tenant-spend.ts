import { SlowlaneError, TenantSpendCapReachedError } from '../../common/errors';
import type { Usage } from '../../common/job';
import type { SpendStore, SpentTotals } from './spend-store';
import { hasCap, type SpendCaps, type SpendWindow } from './spend-windows';

/** What the caps tell whoever listens (metrics). Listeners must not throw. */
export type SpendEvent =
  | { type: 'spent'; tenantId: string; costUsd: number; totals: SpentTotals }
  | { type: 'refused'; tenantId: string; window: SpendWindow; capUsd: number; spentUsd: number };

export interface TenantSpendDeps {
  store: SpendStore;
  /** Per tenant id; a tenant without an entry has no cap and its calls are still counted. */
  caps: Readonly<Record<string, SpendCaps>>;
  onEvent?: (event: SpendEvent) => void;
  now?: () => number;
}

/** One paid call as the caps see it: the most it can cost, the call, and what it really cost. */
export interface PaidCall<T> {
  /** An upper bound of the call's cost in USD; only asked for when the tenant has a cap. */
  mostItCosts: () => number;
  run: () => Promise<T>;
  costOf: (result: T) => number;
}

/**
 * The one implementation of "check the cap, then record what it cost", shared by every paid door (the model
 * gateway, the embeddings gateway): a call runs only when the most it can cost fits the tenant's caps
 * (SpendStore.hold), then its hold is settled to its real cost, whether it answered or failed but was billed.
 * A refused call never runs; it throws TenantSpendCapReachedError, whose details say when the window turns, and
 * the workflow waits for that (JobRun.withSpendCapWaits).
 */
export interface TenantSpend {
  spend<T>(tenantId: string, call: PaidCall<T>): Promise<T>;
}

export function createTenantSpend(deps: TenantSpendDeps): TenantSpend {
  const now = deps.now ?? Date.now;
  const emit = (event: SpendEvent) => deps.onEvent?.(event);
  return {
    async spend(tenantId, call) {
      const caps = deps.caps[tenantId] ?? {};
      // A tenant without a cap holds nothing (no estimate to make) but its calls are still counted.
      const held = await deps.store.hold(tenantId, caps, hasCap(caps) ? call.mostItCosts() : 0, now());
      if (!held.granted) {
        emit({ type: 'refused', tenantId, window: held.window, capUsd: held.capUsd, spentUsd: held.spentUsd });
        const resumesAt = new Date(held.resumesAt).toISOString();
        throw new TenantSpendCapReachedError(
          `tenant ${tenantId} has spent ${held.spentUsd.toFixed(4)} of its ${held.window === 'day' ? 'daily' : 'monthly'} cap of ${held.capUsd} USD; the job waits until ${resumesAt} or the cap is raised`,
          { details: { spendCap: { window: held.window, capUsd: held.capUsd, spentUsd: held.spentUsd, resumesAt } } },
        );
      }
      const settle = async (costUsd: number) => {
        const totals = await deps.store.settle(held.hold, costUsd, now());
        emit({ type: 'spent', tenantId, costUsd, totals });
      };
      let result: Awaited<ReturnType<typeof call.run>>;
      try {
        result = await call.run();
      } catch (error) {
        await settle(billedCostOf(error));
        throw error;
      }
      await settle(call.costOf(result));
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
