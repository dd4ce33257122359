import { heartbeat } from '@temporalio/activity';
import { ModelRequestInvalidError } from '../../common/errors';
import { batchLaneKeys, type BatchEntryOutcome } from '../../common/batch-lane';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import { type BatchLaneDeps, getJson, putJson } from './batch-lane-deps';
import { settleBatchEntrySpend } from './batch-entry-spend';

export interface SubmitMessageBatchInput {
  model: string;
  /** Chosen by the collector before the first attempt: every retry of one submission carries the same key. */
  submissionKey: string;
  customIds: string[];
}

/**
 * The collector's calls to the provider. A submission records the batch id it created under its key before it
 * returns, and a retry (the worker was killed, the answer was lost) finds the record instead of creating a second
 * batch that would be billed again. Results go to S3 entry by entry, so the collector's history only holds outcomes;
 * as they are read, each entry's spend hold is settled to what it was billed (batch-entry-spend.ts).
 */
export function createCollectorActivities(lane: BatchLaneDeps | undefined) {
  function laneOf(): BatchLaneDeps {
    if (!lane) throw new ModelRequestInvalidError('this worker has no batch lane (BATCH_LANE=off)');
    return lane;
  }
  return {
    async submitMessageBatch(input: SubmitMessageBatchInput): Promise<{ batchId: string }> {
      const { store, batches } = laneOf();
      const recordKey = batchLaneKeys.submission(input.submissionKey);
      if (await store.exists(recordKey)) return getJson<{ batchId: string }>(store, recordKey);
      const entries = await Promise.all(
        input.customIds.map(async (customId) => ({
          customId,
          call: await getJson<BatchToolCall>(store, batchLaneKeys.request(customId)),
        })),
      );
      const batchId = await batches.create(entries);
      await putJson(store, recordKey, { batchId });
      return { batchId };
    },

    async messageBatchHasEnded(input: { batchId: string }): Promise<boolean> {
      return laneOf().batches.hasEnded(input.batchId);
    },

    async storeMessageBatchResults(input: { batchId: string }): Promise<Record<string, BatchEntryOutcome>> {
      const { store, batches } = laneOf();
      const outcomes: Record<string, BatchEntryOutcome> = {};
      for (const result of await batches.results(input.batchId)) {
        if (result.message) await putJson(store, batchLaneKeys.answer(result.customId), result.message);
        await settleBatchEntrySpend(laneOf(), result.customId, result.outcome, result.message);
        outcomes[result.customId] = result.outcome;
        heartbeat();
      }
      return outcomes;
    },

    /** Releases the holds of entries that were never billed (their batch was never created, or left them out). */
    async releaseBatchEntrySpend(input: { customIds: string[] }): Promise<void> {
      const lane = laneOf();
      for (const customId of input.customIds) await settleBatchEntrySpend(lane, customId, 'errored', undefined);
    },
  };
}
