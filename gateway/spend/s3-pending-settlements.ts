import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { PendingSettlement, PendingSettlementLog } from './pending-settlements';

/** The prefix of pending settlements in the bucket: one small JSON object per hold id. */
export const PENDING_SETTLEMENTS_PREFIX = 'spend/pending-settlements/';
/** A page of records per settler pass; a backlog is worked off over passes. */
const PAGE = 200;

/**
 * Pending settlements as objects in the worker's bucket: they outlive the worker that recorded them, and any
 * worker's settler settles them (the store counts a hold id once, so two settlers racing count it once).
 */
export function s3PendingSettlements(client: S3Client, bucket: string, prefix = PENDING_SETTLEMENTS_PREFIX): PendingSettlementLog {
  const keyOf = (hold: { tenantId: string; id: string }) => `${prefix}${encodeURIComponent(hold.tenantId)}/${encodeURIComponent(hold.id)}.json`;
  return {
    durable: true,
    async record(pending) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: keyOf(pending.hold), Body: JSON.stringify(pending), ContentType: 'application/json' }),
      );
    },
    async list() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: PAGE }));
      const records: PendingSettlement[] = [];
      for (const object of listed.Contents ?? []) {
        if (!object.Key) continue;
        try {
          const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
          records.push(JSON.parse((await response.Body?.transformToString('utf8')) ?? 'null') as PendingSettlement);
        } catch (error) {
          // Settled and removed by another worker between the list and the read.
          if (!(error instanceof NoSuchKey)) throw error;
        }
      }
      return records;
    },
    async remove(hold) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(hold) }));
    },
  };
}
