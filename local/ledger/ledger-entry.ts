import { randomUUID } from 'node:crypto';
import type { Invoice } from '../../common/invoice';

/** What a client posts to `POST /entries`. */
export interface EntryRequest {
  tenantId: string;
  jobId: string;
  invoice: Invoice;
}

/** A posted entry, exactly as stored in the journal and returned on every replay. */
export interface LedgerEntry extends EntryRequest {
  id: string;
  idempotencyKey: string;
  /** SHA-256 of the canonical JSON of the request body: how a replay is told apart from a reused key. */
  bodySha256: string;
  createdAt: string;
}

export function newEntryId(): string {
  return `led_${randomUUID().replaceAll('-', '')}`;
}

/** Shape check for journal lines; the body itself was validated when it was first posted. */
export function isLedgerEntry(value: unknown): value is LedgerEntry {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  const stringFields = ['id', 'idempotencyKey', 'tenantId', 'jobId', 'bodySha256', 'createdAt'];
  return (
    stringFields.every((field) => typeof entry[field] === 'string') &&
    entry.invoice !== null &&
    typeof entry.invoice === 'object'
  );
}
