import type { BatchCollectorSettings, BatchEntry } from '../../common/batch-lane';
import type { MessageBatches } from '../../gateway/batch/message-batches';
import type { TenantSpend } from '../../gateway/spend/tenant-spend';
import type { ModelPrice } from '../../lib/config';
import type { ObjectStore } from '../../lib/object-store';

/** What the batch lane's activities run with; the worker wires the real ones (workers/activity-deps.ts). */
export interface BatchLaneDeps {
  store: ObjectStore;
  batches: MessageBatches;
  prices: Record<string, ModelPrice>;
  settings: BatchCollectorSettings;
  /** The tenants' spend caps, as the live path's (gateway/spend/tenant-spend.ts); absent, entries are not held. */
  spend?: TenantSpend;
  /** Signal-with-start of the model's collector workflow (one per model), carrying the entry. */
  signalCollector(model: string, settings: BatchCollectorSettings, entry: BatchEntry): Promise<void>;
}

export async function putJson(store: ObjectStore, key: string, value: unknown): Promise<void> {
  await store.put(key, JSON.stringify(value), { contentType: 'application/json' });
}

export async function getJson<T>(store: ObjectStore, key: string): Promise<T> {
  return JSON.parse((await store.getBytes(key)).toString('utf8')) as T;
}
