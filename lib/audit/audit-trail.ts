import type { AuditAction, AuditActor, AuditOutcome, AuditRecord } from '../../common/api-contract/audit';
import type { Logger } from '../logger';
import type { ObjectStore } from '../object-store';
import { auditKeys, auditRecordId } from './audit-keys';

/** What an action is recorded with, before it takes effect. */
export interface AuditEntry {
  action: AuditAction;
  tenantId: string;
  jobId?: string;
  /** What it acts on when that is not the job (a webhook delivery, the tenant itself); part of the record's id. */
  target?: string;
  actor: AuditActor;
  requestId: string;
  /** The request's idempotency key: the same key is the same record. The request id when the caller sent none. */
  idempotencyKey: string;
  details?: AuditRecord['details'];
}

/** The trail could not be written, so the action was not taken. Retrying can help: S3 was away for a moment. */
export class AuditUnavailableError extends Error {
  static readonly retryable = true;
  override readonly name = 'AuditUnavailableError';
}

export interface AuditFilter {
  jobId?: string;
  action?: AuditAction;
  actorId?: string;
  fromMs?: number;
  toMs?: number;
}

export interface AuditPage {
  records: AuditRecord[];
  /** The record key the next page starts after; undefined on the last page. */
  after?: string;
}

/** A started action: how it ended is written beside its record. */
export interface AuditHandle {
  recordId: string;
  finish(outcome: Exclude<AuditOutcome, 'pending'>, code?: string): Promise<void>;
}

type StoredRecord = Omit<AuditRecord, 'outcome' | 'outcomeAt' | 'outcomeCode'>;
interface StoredOutcome {
  outcome: Exclude<AuditOutcome, 'pending'>;
  at: string;
  code?: string;
}
interface Claim {
  key: string;
  at: string;
}

/** A listing reads at most this many records for one page, so a narrow filter cannot make one request read them all. */
const SCAN_LIMIT = 1_000;

/**
 * The audit trail in the bucket (keys in audit-keys.ts). Append-only by construction: nothing here rewrites or deletes
 * a record, and a record's claim is written before the record, so a retried request reuses the key it chose.
 */
export function createAuditTrail(store: ObjectStore, log: Logger, now: () => Date = () => new Date()) {
  const readJson = async <T>(key: string): Promise<T> => JSON.parse((await store.getBytes(key)).toString('utf8')) as T;
  const putJson = (key: string, value: unknown) => store.put(key, JSON.stringify(value), { contentType: 'application/json' });

  async function lastOutcome(tenantId: string, recordId: string): Promise<StoredOutcome | undefined> {
    let last: string | undefined;
    for await (const key of store.list(auditKeys.outcomesPrefix(tenantId, recordId))) last = key;
    return last === undefined ? undefined : readJson<StoredOutcome>(last);
  }

  return {
    /**
     * Records the action before it takes effect; throws AuditUnavailableError when the record cannot be written, and
     * the caller then does not act. The same idempotency key finds the record an earlier attempt wrote.
     */
    async begin(entry: AuditEntry): Promise<AuditHandle> {
      const { tenantId } = entry;
      const recordId = auditRecordId({ tenantId, action: entry.action, target: entry.target ?? entry.jobId ?? '', idempotencyKey: entry.idempotencyKey });
      try {
        const claimKey = auditKeys.claim(tenantId, recordId);
        let claim: Claim;
        if (await store.exists(claimKey)) {
          claim = await readJson<Claim>(claimKey);
        } else {
          const at = now();
          claim = { key: auditKeys.record(tenantId, at.getTime(), recordId), at: at.toISOString() };
          await putJson(claimKey, claim);
        }
        // Written only when missing: the first attempt's record stands, a retry after a crash completes it.
        if (!(await store.exists(claim.key))) {
          const record: StoredRecord = {
            recordId,
            at: claim.at,
            action: entry.action,
            tenantId,
            ...(entry.jobId !== undefined ? { jobId: entry.jobId } : {}),
            actor: entry.actor,
            requestId: entry.requestId,
            details: entry.details ?? {},
          };
          await putJson(claim.key, record);
        }
      } catch (error) {
        throw new AuditUnavailableError(`the audit trail could not be written: ${(error as Error).message}`, { cause: error });
      }
      return {
        recordId,
        async finish(outcome, code) {
          const at = now();
          const stored: StoredOutcome = { outcome, at: at.toISOString(), ...(code !== undefined ? { code } : {}) };
          try {
            await putJson(auditKeys.outcome(tenantId, recordId, at.getTime()), stored);
          } catch (error) {
            // The action has happened and cannot be undone; its record stays `pending` and the job shows the result.
            log.error({ err: error, tenantId, recordId, action: entry.action, outcome }, 'audit outcome not written; the record stays pending');
          }
        },
      };
    },

    /** One tenant's records, newest first, a page at a time. */
    async list(tenantId: string, filter: AuditFilter, page: { limit: number; after?: string }): Promise<AuditPage> {
      const fromTime = filter.toMs === undefined ? undefined : auditKeys.startAfterFor(tenantId, filter.toMs);
      const startAfter = [page.after, fromTime].filter((key): key is string => key !== undefined).sort().at(-1);
      const records: AuditRecord[] = [];
      let scanned = 0;
      let lastKey: string | undefined;
      for await (const key of store.list(auditKeys.recordsPrefix(tenantId), startAfter === undefined ? {} : { startAfter })) {
        const atMs = auditKeys.timeOf(key);
        if (atMs === undefined) continue;
        if (filter.fromMs !== undefined && atMs < filter.fromMs) return { records };
        lastKey = key;
        // The listing starts at `toMs` already; this holds for times outside the keys' range (before 1970, after 2286).
        const inRange = filter.toMs === undefined || atMs <= filter.toMs;
        const record = inRange ? await readJson<StoredRecord>(key) : undefined;
        if (record !== undefined && matches(record, filter)) {
          const outcome = await lastOutcome(tenantId, record.recordId);
          records.push({
            ...record,
            outcome: outcome?.outcome ?? 'pending',
            ...(outcome ? { outcomeAt: outcome.at } : {}),
            ...(outcome?.code !== undefined ? { outcomeCode: outcome.code } : {}),
          });
        }
        if (records.length >= page.limit || ++scanned >= SCAN_LIMIT) return { records, after: lastKey };
      }
      return { records };
    },
  };
}

function matches(record: StoredRecord, filter: AuditFilter): boolean {
  if (filter.jobId !== undefined && record.jobId !== filter.jobId) return false;
  if (filter.action !== undefined && record.action !== filter.action) return false;
  if (filter.actorId !== undefined && record.actor.id !== filter.actorId) return false;
  return true;
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
