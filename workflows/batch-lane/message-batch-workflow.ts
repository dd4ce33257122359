import { type ActivityOptions, log, makeContinueAsNewFunc, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import { DEFAULT_GIVE_UP_AFTER_MS, laneWaitQuery, type MessageBatchInput, type MessageBatchSummary } from '../../common/batch-lane';
import { batchLaneOptions, laneActivityOptions } from './batch-lane-options';
import { SEGMENT_ENTRIES } from './segment-entries';

/** Polls before a batch's run continues as new: each is a timer and an activity, about ten events. */
const POLLS_PER_RUN = 300;
/** Time per entry allowed to a step that touches every entry (reads, writes, signals), on top of a minute. */
const MS_PER_ENTRY = 20;

/** The lane's options for a step over every entry of a batch of `entries`: its timeout grows with the batch. */
function sizedTo(entries: number): ActivityOptions {
  return { ...batchLaneOptions, startToCloseTimeout: 60_000 + entries * MS_PER_ENTRY };
}

/** A poll is tried once: the next poll is its retry, and a failing one counts toward the batch's give-up age. */
const ONE_TRY: ActivityOptions = { ...batchLaneOptions, retry: { ...batchLaneOptions.retry, maximumAttempts: 1 } };

/**
 * One Message Batch from its submission to its last answer (workflow id `message-batch:<model>:<batchKey>`, started
 * by its model's collector): submits the entries the collector wrote (created once: submit-message-batch.ts), asks
 * every BATCH_POLL_INTERVAL whether it has ended, stores its results and signals every job its outcome. A batch that
 * cannot be submitted, or whose status or results cannot be read for BATCH_GIVE_UP_AFTER, has its jobs answered
 * `errored`: they take the live path. Its history holds counts and keys only, whatever the batch's size.
 */
export async function messageBatchWorkflow(input: MessageBatchInput): Promise<MessageBatchSummary> {
  const { model, batchKey, segments } = input;
  const summary: MessageBatchSummary = { batchKey, entries: 0, ending: 'answered', outcomes: {} };
  const sized = proxyActivities<JobActivities>(laneActivityOptions(input.settings, sizedTo(segments * SEGMENT_ENTRIES)));
  const status = proxyActivities<JobActivities>(laneActivityOptions(input.settings, ONE_TRY));
  const answerAll = async (outcome: 'errored', batchId?: string) => {
    const answered = await sized.answerBatchEntries({ model, batchKey, segments, allOutcome: outcome, ...(batchId ? { batchId } : {}) });
    summary.answeredAt = new Date(answered.answeredAt).toISOString();
  };

  let batchId = input.batchId;
  // Until it is submitted its entries still wait; a batch started without openedAt has waited at least since its start.
  setHandler(laneWaitQuery, () =>
    batchId === undefined ? { oldestWaitingSince: input.openedAt ?? workflowInfo().startTime.getTime() } : {},
  );
  if (batchId === undefined) {
    try {
      const submitted = await sized.submitMessageBatch({ model, batchKey, segments });
      summary.entries = submitted.entries;
      if (submitted.batchId === undefined) return { ...summary, ending: 'empty' };
      batchId = submitted.batchId;
    } catch (error) {
      log.warn('a batch could not be submitted; its jobs take the live path', { batchKey, error: String(error) });
      await answerAll('errored');
      return { ...summary, ending: 'not_submitted' };
    }
  }
  summary.batchId = batchId;

  const giveUpAfterMs = input.settings.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;
  let unreadableSince = input.unreadableSince;
  for (let poll = 0; ; poll++) {
    if (poll >= POLLS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await makeContinueAsNewFunc<typeof messageBatchWorkflow>()({ ...input, batchId, ...(unreadableSince ? { unreadableSince } : {}) });
    }
    await sleep(input.settings.pollIntervalMs);
    try {
      const now = await status.messageBatchStatus({ batchId, model });
      unreadableSince = undefined;
      if (!now.ended) continue;
      if (now.endedAt !== undefined) summary.endedAt = new Date(now.endedAt).toISOString();
      summary.outcomes = await sized.storeMessageBatchResults({ batchKey, batchId });
      break;
    } catch (error) {
      unreadableSince ??= Date.now();
      if (Date.now() - unreadableSince < giveUpAfterMs) {
        log.warn('a batch could not be read; trying again at the next poll', { batchId, error: String(error) });
        continue;
      }
      log.error('a batch could not be read for too long; it is given up and its jobs take the live path', { batchId, error: String(error) });
      await status.cancelMessageBatch({ batchId, model }).catch(() => undefined);
      await answerAll('errored', batchId);
      return { ...summary, ending: 'given_up' };
    }
  }
  summary.entries = Object.values(summary.outcomes).reduce((sum, count) => sum + count, 0);
  const answered = await sized.answerBatchEntries({ model, batchKey, segments, batchId });
  summary.answeredAt = new Date(answered.answeredAt).toISOString();
  return summary;
}
