import type { SpendHold } from './spend-store';

/** A paid call's cost that could not be settled when it ended (the store did not answer), to be settled later. */
export interface PendingSettlement {
  hold: SpendHold;
  usd: number;
  /** When the call ended (ISO), for the log and for an operator reading the record. */
  endedAt: string;
}

/**
 * Where pending settlements wait, outside the spend store they wait for: S3 in a worker (s3-pending-settlements.ts),
 * memory in tests. One record per hold id, so recording twice keeps one.
 */
export interface PendingSettlementLog {
  readonly durable: boolean;
  record(pending: PendingSettlement): Promise<void>;
  /** Some of the records waiting (a page: the settler comes back for the rest). */
  list(): Promise<PendingSettlement[]>;
  remove(hold: SpendHold): Promise<void>;
}

/** Pending settlements in this process only: for tests and tools; a worker records them in S3. */
export function inMemoryPendingSettlements(): PendingSettlementLog & { records: Map<string, PendingSettlement> } {
  const records = new Map<string, PendingSettlement>();
  const keyOf = (hold: SpendHold) => `${hold.tenantId}/${hold.id}`;
  return {
    durable: false,
    records,
    async record(pending) {
      records.set(keyOf(pending.hold), pending);
    },
    async list() {
      return [...records.values()];
    },
    async remove(hold) {
      records.delete(keyOf(hold));
    },
  };
}
