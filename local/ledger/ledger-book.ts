import type { LedgerEntry } from './ledger-entry';

export interface EntryFilter {
  tenantId?: string;
  jobId?: string;
  idempotencyKey?: string;
}

/** The in-memory view of the journal: every entry in posting order, indexed by id and by idempotency key. */
export class LedgerBook {
  private readonly entries: LedgerEntry[] = [];
  private readonly byId = new Map<string, LedgerEntry>();
  private readonly byKey = new Map<string, LedgerEntry>();

  constructor(initialEntries: readonly LedgerEntry[] = []) {
    for (const entry of initialEntries) this.add(entry);
  }

  add(entry: LedgerEntry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.byKey.set(entry.idempotencyKey, entry);
  }

  get size(): number {
    return this.entries.length;
  }

  findById(id: string): LedgerEntry | undefined {
    return this.byId.get(id);
  }

  findByKey(idempotencyKey: string): LedgerEntry | undefined {
    return this.byKey.get(idempotencyKey);
  }

  /** Oldest first. */
  list(filter: EntryFilter = {}): LedgerEntry[] {
    return this.entries.filter(
      (entry) =>
        (filter.tenantId === undefined || entry.tenantId === filter.tenantId) &&
        (filter.jobId === undefined || entry.jobId === filter.jobId) &&
        (filter.idempotencyKey === undefined || entry.idempotencyKey === filter.idempotencyKey),
    );
  }
}
