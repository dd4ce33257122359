import { createHash } from 'node:crypto';

/**
 * Where the audit trail lives in the bucket, one tenant's under `audit/<tenant>/`:
 *
 * - `records/<newest-first time>-<recordId>.json`: the action as it was asked for, written before it took effect;
 * - `ids/<recordId>.json`: the claim naming that record's key, so a retried request finds its record again;
 * - `outcomes/<recordId>/<time>.json`: how it ended, one object per attempt (the last one counts).
 *
 * Keys sort newest first, so a page is read from where the last one stopped without reading what came before.
 */
const LATEST = 9_999_999_999_999;
const TIME_DIGITS = 13;

const pad = (value: number) => String(value).padStart(TIME_DIGITS, '0');

export const auditKeys = {
  tenantPrefix: (tenantId: string) => `audit/${tenantId}/`,
  recordsPrefix: (tenantId: string) => `audit/${tenantId}/records/`,
  record: (tenantId: string, atMs: number, recordId: string) => `audit/${tenantId}/records/${pad(LATEST - atMs)}-${recordId}.json`,
  claim: (tenantId: string, recordId: string) => `audit/${tenantId}/ids/${recordId}.json`,
  outcomesPrefix: (tenantId: string, recordId: string) => `audit/${tenantId}/outcomes/${recordId}/`,
  outcome: (tenantId: string, recordId: string, atMs: number) => `audit/${tenantId}/outcomes/${recordId}/${pad(atMs)}.json`,
  /** The time a record key was written at; undefined for a key of another shape. */
  timeOf(recordKey: string): number | undefined {
    const match = /\/records\/(\d{13})-[0-9a-f]+\.json$/.exec(recordKey);
    return match ? LATEST - Number(match[1]) : undefined;
  },
  /** A key sorting just before every record written at or before `atMs`: where a listing "up to atMs" starts after. */
  startAfterFor: (tenantId: string, atMs: number) => `audit/${tenantId}/records/${pad(LATEST - atMs - 1)}~`,
};

/**
 * One action, one record: the tenant, the action, what it acts on and the request's idempotency key name it.
 * A retried request (same key) is the same record; another request on the same job is another record.
 */
export function auditRecordId(parts: { tenantId: string; action: string; target: string; idempotencyKey: string }): string {
  return createHash('sha256')
    .update([parts.tenantId, parts.action, parts.target, parts.idempotencyKey].join('\n'))
    .digest('hex')
    .slice(0, 32);
}
