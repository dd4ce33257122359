import { createHash } from 'node:crypto';
import type { PushScope, PushTarget } from '../../common/push';
import type { ObjectStore } from '../object-store';

/** A subscription as stored: sealed like every object when the product encrypts (OBJECT_STORE_ENCRYPTION=product). */
export interface PushSubscriptionRecord {
  id: string;
  tenantId: string;
  scope: PushScope;
  jobId?: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  createdAt: string;
  createdBy: string;
}

const PREFIX = 'push-subscriptions';

/**
 * `push-subscriptions/<tenant>/<scope>/<id>.json`: a job's subscriptions sit under a hash of its id, so a delivery
 * lists only the few that follow that job (or the review queue), never the tenant's whole set.
 */
function scopeFolder(tenantId: string, scope: PushScope, jobId: string | undefined): string {
  const folder = scope === 'review_queue' ? 'review-queue' : `jobs/${createHash('sha256').update(jobId ?? '').digest('hex')}`;
  return `${PREFIX}/${tenantId}/${folder}/`;
}

/** Where a job's own subscriptions are: an erasure of the job deletes them with its other objects (lib/erasure). */
export function jobPushSubscriptionsPrefix(tenantId: string, jobId: string): string {
  return scopeFolder(tenantId, 'job', jobId);
}

/**
 * The id is derived from tenant, scope and endpoint: a browser that registers again on every page load rewrites its
 * one record (fresh keys included) instead of filling the tenant's cap.
 */
export function pushSubscriptionId(tenantId: string, scope: PushScope, jobId: string | undefined, endpoint: string): string {
  const digest = createHash('sha256').update(JSON.stringify([tenantId, scope, jobId ?? null, endpoint])).digest('base64url');
  return `psub_${digest.slice(0, 24)}`;
}

const ID = /^psub_[A-Za-z0-9_-]{24}$/;

export interface PushSubscriptions {
  /** Writes the record; true when it is new (no record had its id). */
  put(record: PushSubscriptionRecord): Promise<boolean>;
  list(tenantId: string): Promise<PushSubscriptionRecord[]>;
  count(tenantId: string): Promise<number>;
  /** The tenant's subscription with this id; undefined for a missing one and another tenant's alike. */
  find(tenantId: string, id: string): Promise<PushSubscriptionRecord | undefined>;
  /** What follows this job, or the review queue: the targets a delivery sends to. */
  targets(tenantId: string, scope: PushScope, jobId: string): Promise<PushTarget[]>;
  read(tenantId: string, target: PushTarget, jobId: string): Promise<PushSubscriptionRecord | undefined>;
  remove(tenantId: string, target: PushTarget, jobId: string): Promise<void>;
}

export function createPushSubscriptions(store: ObjectStore): PushSubscriptions {
  const keyOf = (tenantId: string, scope: PushScope, jobId: string | undefined, id: string) => `${scopeFolder(tenantId, scope, jobId)}${id}.json`;
  const tenantKeys = async (tenantId: string) => {
    const keys: string[] = [];
    for await (const key of store.list(`${PREFIX}/${tenantId}/`)) keys.push(key);
    return keys;
  };
  const readKey = async (key: string) => {
    try {
      return JSON.parse((await store.getBytes(key)).toString('utf8')) as PushSubscriptionRecord;
    } catch (error) {
      // Deleted between the list and the read (a 404/410 cleaned it up): no subscription any more.
      if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  };
  return {
    async put(record) {
      const key = keyOf(record.tenantId, record.scope, record.jobId, record.id);
      const existed = await store.exists(key);
      await store.put(key, JSON.stringify(record), { contentType: 'application/json' });
      return !existed;
    },
    async list(tenantId) {
      const records = await Promise.all((await tenantKeys(tenantId)).map(readKey));
      return records.filter((record): record is PushSubscriptionRecord => record !== undefined);
    },
    async count(tenantId) {
      return (await tenantKeys(tenantId)).length;
    },
    async find(tenantId, id) {
      if (!ID.test(id)) return undefined;
      const key = (await tenantKeys(tenantId)).find((candidate) => candidate.endsWith(`/${id}.json`));
      return key ? readKey(key) : undefined;
    },
    async targets(tenantId, scope, jobId) {
      const targets: PushTarget[] = [];
      for await (const key of store.list(scopeFolder(tenantId, scope, jobId))) {
        const id = /\/(psub_[A-Za-z0-9_-]+)\.json$/.exec(key)?.[1];
        if (id) targets.push({ id, scope });
      }
      return targets;
    },
    async read(tenantId, target, jobId) {
      const key = keyOf(tenantId, target.scope, jobId, target.id);
      return (await store.exists(key)) ? readKey(key) : undefined;
    },
    remove: (tenantId, target, jobId) => store.deleteMany([keyOf(tenantId, target.scope, jobId, target.id)]),
  };
}
