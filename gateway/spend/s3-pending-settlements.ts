import { NoSuchKey } from '@aws-sdk/client-s3';
import type { ObjectStore } from '../../lib/object-store';
import type { PendingSettlement, PendingSettlementLog } from './pending-settlements';

/** The prefix of pending settlements in the bucket: one small JSON object per hold id. */
export const PENDING_SETTLEMENTS_PREFIX = 'spend/pending-settlements/';
/** A page of records per settler pass; a backlog is worked off over passes. */
const PAGE = 200;

/**
 * Pending settlements as objects in the worker's bucket: they outlive the worker that recorded them, and any
 * worker's settler settles them (the store counts a hold id once, so two settlers racing count it once). Written
 * through the object store, so they are encrypted at rest like every other object (OBJECT_STORE_ENCRYPTION).
 */
export function s3PendingSettlements(store: ObjectStore, prefix = PENDING_SETTLEMENTS_PREFIX): PendingSettlementLog {
  const keyOf = (hold: { tenantId: string; id: string }) => `${prefix}${encodeURIComponent(hold.tenantId)}/${encodeURIComponent(hold.id)}.json`;
  return {
    durable: true,
    async record(pending) {
      await store.put(keyOf(pending.hold), JSON.stringify(pending), { contentType: 'application/json' });
    },
    async list() {
      const records: PendingSettlement[] = [];
      for await (const key of store.list(prefix)) {
        try {
          records.push(JSON.parse((await store.getBytes(key)).toString('utf8')) as PendingSettlement);
        } catch (error) {
          // Settled and removed by another worker between the list and the read.
          if (!(error instanceof NoSuchKey)) throw error;
        }
        if (records.length >= PAGE) break;
      }
      return records;
    },
    async remove(hold) {
      await store.deleteMany([keyOf(hold)]);
    },
  };
}
