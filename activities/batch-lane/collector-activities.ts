import { type BatchEntry, batchLaneKeys } from '../../common/batch-lane';
import { ModelRequestInvalidError } from '../../common/errors';
import type { MessageBatchStatus } from '../../gateway/batch/message-batches';
import { type AnswerBatchEntriesInput, answerBatchEntries } from './answer-batch-entries';
import { type BatchLaneDeps, putJson } from './batch-lane-deps';
import { storeMessageBatchResults } from './read-message-batch';
import { reconcileMessageBatches } from './reconcile-message-batches';
import { type SubmitMessageBatchInput, submitMessageBatch } from './submit-message-batch';

export type { SubmitMessageBatchInput };

/**
 * The collector's and the batch workflows' calls (docs/gateway.md#the-batch-lane): entries go to the object store
 * a segment at a time, a batch is created once (submit-message-batch.ts), its results are stored entry by entry and
 * its jobs answered many at once, so no workflow ever holds more than a batch's key and counts.
 */
export function createCollectorActivities(lane: BatchLaneDeps | undefined) {
  function laneOf(): BatchLaneDeps {
    if (!lane) throw new ModelRequestInvalidError('this worker has no batch lane (BATCH_LANE=off)');
    return lane;
  }
  return {
    async writeBatchSegment(input: { batchKey: string; index: number; entries: BatchEntry[] }): Promise<void> {
      await putJson(laneOf().store, batchLaneKeys.segment(input.batchKey, input.index), { entries: input.entries });
    },

    async submitMessageBatch(input: SubmitMessageBatchInput): Promise<{ batchId?: string; entries: number }> {
      return submitMessageBatch(laneOf(), input);
    },

    async messageBatchStatus(input: { batchId: string; model?: string }): Promise<MessageBatchStatus> {
      const lane = laneOf();
      const status = await lane.batches.status(input.batchId);
      lane.onEvent?.({ type: 'polled', model: input.model ?? 'unknown', batchId: status.batchId, createdAt: status.createdAt, ended: status.ended });
      return status;
    },

    async storeMessageBatchResults(input: { batchKey: string; batchId: string }) {
      return storeMessageBatchResults(laneOf(), input);
    },

    async answerBatchEntries(input: AnswerBatchEntriesInput) {
      return answerBatchEntries(laneOf(), input);
    },

    /** A batch given up: cancelled so the provider answers no more of it (best effort: it may have ended). */
    async cancelMessageBatch(input: { batchId: string; model: string }): Promise<void> {
      const lane = laneOf();
      await lane.batches.cancel(input.batchId);
      lane.onEvent?.({ type: 'given-up', model: input.model });
    },

    async reconcileMessageBatches(input: { horizonMs: number }) {
      return reconcileMessageBatches(laneOf(), input);
    },
  };
}
