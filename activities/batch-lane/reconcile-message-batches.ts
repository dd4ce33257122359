import { log } from '@temporalio/activity';
import { batchLaneKeys, CREATING_PREFIX } from '../../common/batch-lane';
import type { MessageBatchStatus } from '../../gateway/batch/message-batches';
import { type BatchLaneDeps, getJson, putJson } from './batch-lane-deps';
import { storeResults } from './read-message-batch';
import { type BatchIntent, cancelUnrecordedBatches, firstCustomIdOf, type KnownBatch } from './submit-message-batch';

export interface ReconcileResult {
  /** Provider batches looked at (created inside the horizon). */
  listed: number;
  /** Unrecorded batches of an interrupted submission, cancelled. */
  cancelled: number;
  /** Ended batches no workflow reads (orphans), whose results were stored. */
  harvested: number;
  /** Batches of another application on the same account: left alone. */
  foreign: number;
}

/**
 * The lane's safety net (docs/gateway.md#every-batch-read-once): lists the provider's batches created inside the
 * horizon. An interrupted submission's unrecorded batch is cancelled (as the submission's own retry does); an
 * ended batch no workflow reads is harvested once — answers stored, holds settled — if its entries are the
 * product's (a request or a hold of that custom id is in the store); any other is another application's and is
 * only noted, so the product never cancels what it did not create.
 */
export async function reconcileMessageBatches(lane: BatchLaneDeps, input: { horizonMs: number }): Promise<ReconcileResult> {
  const result: ReconcileResult = { listed: 0, cancelled: 0, harvested: 0, foreign: 0 };
  for await (const key of lane.store.list(CREATING_PREFIX)) {
    const intent = await getJson<BatchIntent>(lane.store, key);
    // An intent still creating after an hour belongs to no live submission: its attempts are over.
    if (Date.now() - intent.attemptStartedAt > 60 * 60_000) {
      result.cancelled += await cancelUnrecordedBatches(lane, intent);
      await lane.store.deleteMany([key]);
    }
  }
  const since = Date.now() - input.horizonMs;
  const unread: Array<{ batch: MessageBatchStatus; known: KnownBatch | undefined }> = [];
  for await (const batch of lane.batches.list()) {
    if (batch.createdAt < since) break;
    result.listed++;
    const indexKey = batchLaneKeys.batchId(batch.batchId);
    const known = (await lane.store.exists(indexKey)) ? await getJson<KnownBatch>(lane.store, indexKey) : undefined;
    if (known?.kind === 'lane' || known?.kind === 'foreign' || known?.harvested) continue;
    if (batch.ended) unread.push({ batch, known });
  }
  for (const { batch, known } of unread) {
    const ours = async (customId: string) =>
      (await lane.store.exists(batchLaneKeys.request(customId))) || (await lane.store.exists(batchLaneKeys.spendHold(customId)));
    const first = await firstCustomIdOf(lane, batch.batchId);
    const indexKey = batchLaneKeys.batchId(batch.batchId);
    if (!known && (first === undefined || !(await ours(first)))) {
      await putJson(lane.store, indexKey, { batchKey: '', model: '', kind: 'foreign' } satisfies KnownBatch);
      result.foreign++;
      continue;
    }
    const outcomes = await storeResults(lane, batch.batchId);
    const billed = [...outcomes.values()].filter((outcome) => outcome === 'succeeded').length;
    if (billed > 0) log.warn('an orphaned batch had answered entries: they were billed and are kept', { batchId: batch.batchId, billed });
    await putJson(lane.store, indexKey, { batchKey: known?.batchKey ?? '', model: known?.model ?? '', kind: 'orphan', harvested: true });
    lane.onEvent?.({ type: 'harvested', entries: outcomes.size });
    result.harvested++;
  }
  return result;
}
