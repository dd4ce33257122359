import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json';
import type { Logger } from '../../lib/logger';
import { EntryJournal } from './entry-journal';
import { KeyedMutex } from './keyed-mutex';
import { LedgerBook, type EntryFilter } from './ledger-book';
import { newEntryId, type EntryRequest, type LedgerEntry } from './ledger-entry';

export type PostEntryResult =
  | { outcome: 'created'; entry: LedgerEntry }
  | { outcome: 'replayed'; entry: LedgerEntry }
  /** The key was used before for a different body; `existing` is what it was used for. */
  | { outcome: 'conflict'; existing: LedgerEntry };

/** Counted since the process started; the entry count itself comes from the journal. */
export interface LedgerCounters {
  entries: number;
  created: number;
  replayed: number;
  conflicts: number;
}

/** Idempotent posting: one entry per idempotency key, durable before it is reported as created. */
export class Ledger {
  private readonly keyLocks = new KeyedMutex();
  private readonly counts = { created: 0, replayed: 0, conflicts: 0 };

  private constructor(
    private readonly book: LedgerBook,
    private readonly journal: EntryJournal,
  ) {}

  static async open(input: { dataDir: string; log: Logger }): Promise<Ledger> {
    const { journal, entries } = await EntryJournal.open(input);
    return new Ledger(new LedgerBook(entries), journal);
  }

  post(input: { idempotencyKey: string; request: EntryRequest }): Promise<PostEntryResult> {
    const bodySha256 = createHash('sha256').update(canonicalJson(input.request), 'utf8').digest('hex');
    return this.keyLocks.runExclusive(input.idempotencyKey, async () => {
      const existing = this.book.findByKey(input.idempotencyKey);
      if (existing) return this.resolveRepeat(existing, bodySha256);
      const entry: LedgerEntry = {
        id: newEntryId(),
        idempotencyKey: input.idempotencyKey,
        tenantId: input.request.tenantId,
        jobId: input.request.jobId,
        invoice: input.request.invoice,
        bodySha256,
        createdAt: new Date().toISOString(),
      };
      // Written and fsync'd first: an entry visible in memory (and so replayable) is always on disk.
      await this.journal.append(entry);
      this.book.add(entry);
      this.counts.created += 1;
      return { outcome: 'created', entry };
    });
  }

  findById(id: string): LedgerEntry | undefined {
    return this.book.findById(id);
  }

  list(filter: EntryFilter): LedgerEntry[] {
    return this.book.list(filter);
  }

  counters(): LedgerCounters {
    return { entries: this.book.size, ...this.counts };
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  private resolveRepeat(existing: LedgerEntry, bodySha256: string): PostEntryResult {
    if (existing.bodySha256 === bodySha256) {
      this.counts.replayed += 1;
      return { outcome: 'replayed', entry: existing };
    }
    this.counts.conflicts += 1;
    return { outcome: 'conflict', existing };
  }
}
