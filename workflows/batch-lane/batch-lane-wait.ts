import { condition, log, patched, setHandler, uuid4, workflowInfo } from '@temporalio/workflow';
import { type BatchAnswer, type BatchEntry, batchAnswerSignal } from '../../common/batch-lane';
import type { JobStart } from '../../common/job';

/** Jobs started before the batch lane existed keep the live path on replay. */
export const BATCH_LANE_PATCH = 'batch-lane';

/**
 * How long the job may wait for its batch answer: until its deadline less the margin, or BATCH_MAX_WAIT without
 * one; undefined when the lane is not for this job (not allowed, or the deadline is already at risk).
 */
export function batchWaitMs(input: JobStart, now: number): number | undefined {
  const allowance = input.batchLane;
  if (!allowance || input.priority !== 'bulk') return undefined;
  const deadline = input.deadline === undefined ? undefined : Date.parse(input.deadline);
  const wait = deadline === undefined || Number.isNaN(deadline) ? allowance.maxWaitMs : deadline - allowance.deadlineMarginMs - now;
  return wait > 0 ? Math.min(wait, allowance.maxWaitMs) : undefined;
}

/**
 * The batch lane from a job's side: enqueue the step's first model request with the model's collector, then wait
 * for the collector's signal carrying this request's outcome. The answer's custom id when it succeeded; undefined
 * when the job should ask live: the lane is not for it, the enqueue failed, the entry errored or expired, or the
 * deadline came too near (an entry already in a batch may then still be billed, at the batch price).
 */
export async function answerThroughBatchLane(
  input: JobStart,
  enqueue: (entry: BatchEntry) => Promise<void>,
  /** Called once the job takes the lane: the job shows its step as running while its request waits in a batch. */
  onEnter: () => void,
): Promise<{ customId: string } | undefined> {
  const waitMs = batchWaitMs(input, Date.now());
  if (waitMs === undefined || !patched(BATCH_LANE_PATCH)) return undefined;
  onEnter();
  const customId = uuid4().replace(/-/g, '');
  let answer: BatchAnswer | undefined;
  setHandler(batchAnswerSignal, (message) => {
    if (message.customId === customId) answer = message;
  });
  try {
    await enqueue({ customId, replyTo: workflowInfo().workflowId });
  } catch (error) {
    log.warn('the batch lane refused the request; asking live', { error: String(error) });
    return undefined;
  }
  if (!(await condition(() => answer !== undefined, waitMs))) {
    log.info('no batch answer before the deadline margin; asking live', { customId });
    return undefined;
  }
  if (answer?.outcome !== 'succeeded') {
    log.info('the batch entry did not succeed; asking live', { customId, outcome: answer?.outcome });
    return undefined;
  }
  return { customId };
}
