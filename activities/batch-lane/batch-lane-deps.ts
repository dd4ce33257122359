import type { BatchAnswer, BatchCollectorSettings, BatchEntry } from '../../common/batch-lane';
import type { MessageBatches } from '../../gateway/batch/message-batches';
import type { TenantSpend } from '../../gateway/spend/tenant-spend';
import type { ModelPrice } from '../../lib/config';
import type { BatchLaneKillPoint } from '../../lib/config/batch-lane-settings';
import type { BatchLaneEvent } from '../../lib/metrics-batch-lane';
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
  /** Hands a job its entry's answer: `gone` when no such workflow runs any more (nobody waits for it). */
  signalJob(workflowId: string, answer: BatchAnswer): Promise<'signalled' | 'gone'>;
  /** What the lane did, for the metrics (lib/metrics-batch-lane.ts). */
  onEvent?: (event: BatchLaneEvent) => void;
  /** Told each kill point a batch passes; only the kill tests set it (kill-point.ts). */
  reached?: (point: BatchLaneKillPoint) => void;
}

export async function putJson(store: ObjectStore, key: string, value: unknown): Promise<void> {
  await store.put(key, JSON.stringify(value), { contentType: 'application/json' });
}

export async function getJson<T>(store: ObjectStore, key: string): Promise<T> {
  return JSON.parse((await store.getBytes(key)).toString('utf8')) as T;
}

/**
 * Runs `work` over `items` with at most `limit` in flight, in order of start; `onDone` is told how many finished.
 * The lane reads and writes thousands of small objects and signals thousands of jobs: one at a time is minutes,
 * all at once exhausts sockets.
 */
export async function eachWithLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
  onDone?: (finished: number) => void,
): Promise<void> {
  let next = 0;
  let finished = 0;
  const runner = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
      onDone?.(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
}
