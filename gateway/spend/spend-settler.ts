import type { Logger } from '../../lib/logger';
import { inMemoryPendingSettlements, type PendingSettlement, type PendingSettlementLog } from './pending-settlements';
import type { SettledTotals, SpendHold, SpendStore, SpentTotals } from './spend-store';

/** How often a worker settles what is pending: the caps run a little behind while the store is away, not longer. */
export const SETTLE_PENDING_EVERY_MS = 15_000;

type SettlerLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface SpendSettlerDeps {
  store: SpendStore;
  pending?: PendingSettlementLog;
  log?: SettlerLog;
  /** Told each settlement that lands, now or later (metrics). */
  onSettled?: (hold: SpendHold, usd: number, totals: SpentTotals) => void;
  /** Told each settlement deferred because the store failed it (metrics). */
  onDeferred?: (hold: SpendHold, usd: number) => void;
}

/**
 * Settles a paid call's cost, and never fails the call for it: the provider has billed, so a failed call would be
 * retried by Temporal and billed again. When the store does not answer, the settlement is recorded (S3 in a
 * worker) and settled later by any worker's settler; the store counts a hold id once (SpendStore.settle), so a
 * settle whose answer was lost and then retried still counts once.
 */
export interface SpendSettler {
  /** The totals after the settle, or undefined when it was deferred. Never throws. */
  settle(hold: SpendHold, usd: number): Promise<SpentTotals | undefined>;
  /** One pass over what is pending; what the store still refuses stays for the next pass. */
  settlePending(): Promise<{ settled: number; left: number }>;
  /** Passes every SETTLE_PENDING_EVERY_MS until stop(); the first at once (an earlier process may have left some). */
  start(everyMs?: number): void;
  /** Stops the passes, after one last pass. */
  stop(): Promise<void>;
}

export function createSpendSettler(deps: SpendSettlerDeps): SpendSettler {
  const pending = deps.pending ?? inMemoryPendingSettlements();
  const log: SettlerLog = deps.log ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
  /** Settlements neither the store nor the log took: retried from memory, as long as this process lives. */
  const unrecorded = new Map<string, PendingSettlement>();
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<unknown> = Promise.resolve();

  /**
   * Told of a settle that counted. A repeat (a batch's results read again) is not told, except a deferred one: its
   * first settle may have counted with its answer lost, and nobody was told of it then.
   */
  const settled = (hold: SpendHold, usd: number, totals: SettledTotals, deferred = false) => {
    if (!totals.repeated || deferred) deps.onSettled?.(hold, usd, totals);
  };

  async function defer(record: PendingSettlement, cause: unknown): Promise<void> {
    const where = { tenantId: record.hold.tenantId, holdId: record.hold.id, usd: record.usd };
    deps.onDeferred?.(record.hold, record.usd);
    try {
      await pending.record(record);
      log.warn({ ...where, err: cause }, 'spend store did not settle a paid call; the settlement is recorded and settled later');
    } catch (error) {
      unrecorded.set(record.hold.id, record);
      log.error({ ...where, err: error, storeError: String(cause) }, 'a paid call could neither be settled nor recorded; kept in memory and retried');
    }
  }

  async function settleOne(record: PendingSettlement, fromLog: boolean): Promise<boolean> {
    try {
      settled(record.hold, record.usd, await deps.store.settle(record.hold, record.usd), true);
    } catch {
      return false;
    }
    unrecorded.delete(record.hold.id);
    // Removed after the settle: a crash in between leaves a record whose next settle counts nothing.
    if (fromLog) await pending.remove(record.hold).catch(() => undefined);
    log.info({ tenantId: record.hold.tenantId, holdId: record.hold.id, usd: record.usd, endedAt: record.endedAt }, 'pending spend settled');
    return true;
  }

  async function settlePendingOnce(): Promise<{ settled: number; left: number }> {
    let done = 0;
    let left = 0;
    const count = (settledNow: boolean) => (settledNow ? (done += 1) : (left += 1));
    for (const record of [...unrecorded.values()]) count(await settleOne(record, false));
    let listed: PendingSettlement[] = [];
    try {
      listed = await pending.list();
    } catch (error) {
      log.warn({ err: error }, 'pending spend settlements could not be listed; next pass');
    }
    for (const record of listed) count(await settleOne(record, true));
    return { settled: done, left };
  }

  const settlePending = () => {
    // One pass at a time: a slow pass and the next tick must not settle the same records side by side.
    const next = pass.then(settlePendingOnce, settlePendingOnce);
    pass = next.catch(() => undefined);
    return next;
  };

  return {
    async settle(hold, usd) {
      try {
        const totals = await deps.store.settle(hold, usd);
        settled(hold, usd, totals);
        return totals;
      } catch (error) {
        await defer({ hold, usd, endedAt: new Date().toISOString() }, error);
        return undefined;
      }
    },
    settlePending,
    start(everyMs = SETTLE_PENDING_EVERY_MS) {
      if (timer) return;
      const tick = () => void settlePending().catch((error: unknown) => log.warn({ err: error }, 'pending spend pass failed'));
      tick();
      timer = setInterval(tick, everyMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await settlePending().catch(() => undefined);
    },
  };
}
