import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { BatchLaneDeps } from '../../activities/batch-lane/batch-lane-deps';
import { createCollectorActivities } from '../../activities/batch-lane/collector-activities';
import type { BatchEntryOutcome } from '../../common/batch-lane';
import { batchLaneKeys } from '../../common/batch-lane';

/**
 * The batch workflow's steps run one after another outside Temporal, each in a mock activity context, as the
 * workflow would run them: a segment of the given entries, the submission, the status, the results.
 */
export function laneSteps(lane: BatchLaneDeps) {
  const activities = createCollectorActivities(lane);
  return {
    async submit(model: string, customIds: string[], batchKey = randomUUID().replace(/-/g, '')) {
      const entries = customIds.map((customId) => ({ customId, replyTo: `job-of-${customId}` }));
      await activities.writeBatchSegment({ batchKey, index: 0, entries });
      const submitted = (await new MockActivityEnvironment().run(activities.submitMessageBatch, { model, batchKey, segments: 1 })) as {
        batchId?: string;
        entries: number;
      };
      return { ...submitted, batchKey };
    },
    status: (batchId: string) => activities.messageBatchStatus({ batchId }),
    /** Reads the results and returns each entry's outcome as the batch workflow would hand it on. */
    async storeResults(batchKey: string, batchId: string): Promise<Record<string, BatchEntryOutcome>> {
      await new MockActivityEnvironment().run(activities.storeMessageBatchResults, { batchKey, batchId });
      return JSON.parse((await lane.store.getBytes(batchLaneKeys.outcomes(batchKey))).toString('utf8')) as Record<string, BatchEntryOutcome>;
    },
    /** Answers every entry `errored` (a batch not submitted): holds of entries never billed go back. */
    answerAllErrored: (model: string, batchKey: string) =>
      new MockActivityEnvironment().run(activities.answerBatchEntries, { model, batchKey, segments: 1, allOutcome: 'errored' as const }),
  };
}
