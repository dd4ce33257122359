import { condition, log, patched, proxyActivities, setHandler, uuid4, workflowInfo } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import type { BatchLaneStepRequest } from '../../activities/batch-lane/enqueue-batch-entry';
import { type BatchAnswer, type BatchEntry, batchAnswerSignal, type FromBatch } from '../../common/batch-lane';
import type { JobStart } from '../../common/job';
import { batchLaneOptions } from './batch-lane-options';
import { PATCHES } from '../patches';

/** What decides whether a job's calls may take the lane and for how long. */
export type BatchLaneJob = Pick<JobStart, 'priority' | 'deadline' | 'batchLane'>;

/**
 * How long the job may wait for its batch answer: until its deadline less the margin, or BATCH_MAX_WAIT without
 * one; undefined when the lane is not for this job (not allowed, or the deadline is already at risk).
 */
export function batchWaitMs(input: BatchLaneJob, now: number): number | undefined {
  const allowance = input.batchLane;
  if (!allowance || input.priority !== 'bulk') return undefined;
  const deadline = input.deadline === undefined ? undefined : Date.parse(input.deadline);
  const wait = deadline === undefined || Number.isNaN(deadline) ? allowance.maxWaitMs : deadline - allowance.deadlineMarginMs - now;
  return wait > 0 ? Math.min(wait, allowance.maxWaitMs) : undefined;
}

/**
 * The batch lane as order.score jobs that entered it before `PATCHES.orderScoreOnBatchLaneWait` took it (every
 * newer job takes BatchLaneWait below); it goes with that patch. Enqueue the step's first model request with the
 * model's collector, then wait for the collector's signal carrying this request's outcome. The answer's custom id when it succeeded; undefined
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
  if (waitMs === undefined || !patched(PATCHES.batchLane.id)) return undefined;
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

const lane = proxyActivities<JobActivities>(batchLaneOptions);

/**
 * The batch lane from a job workflow's side, for every lane step (activities/batch-lane/enqueue-batch-entry.ts):
 * one handler takes the collector's answers by custom id, so several steps (a group's chunks) may wait at once.
 * Create it before the first `await`, so no answer signal arrives before its handler.
 */
export class BatchLaneWait {
  private readonly answers = new Map<string, BatchAnswer>();

  constructor(private readonly job: BatchLaneJob) {
    setHandler(batchAnswerSignal, (answer) => {
      this.answers.set(answer.customId, answer);
    });
  }

  /**
   * Enqueues the step's first call with its model's collector and waits for its answer: the result goes into the
   * step's input, and holds `fromBatch` only the first time it is taken (a step rerun after a dead letter asks
   * live). Asks live (nothing to take) when the lane is not for this job, the deadline is at risk now or comes
   * near while waiting, the enqueue fails, or the entry errored or expired. Jobs started before the lane served
   * this step never enqueue (`PATCHES.batchLaneSteps`).
   */
  async firstCall(request: BatchLaneStepRequest, onEnter?: () => void): Promise<() => FromBatch> {
    const live = () => ({});
    const waitMs = batchWaitMs(this.job, Date.now());
    if (waitMs === undefined || !patched(PATCHES.batchLaneSteps.id)) return live;
    onEnter?.();
    const customId = uuid4().replace(/-/g, '');
    try {
      await lane.enqueueBatchEntry({ ...request, customId, replyTo: workflowInfo().workflowId });
    } catch (error) {
      log.warn('the batch lane refused the request; asking live', { step: request.step, error: String(error) });
      return live;
    }
    const answered = await condition(() => this.answers.has(customId), waitMs);
    const answer = this.answers.get(customId);
    this.answers.delete(customId);
    if (!answered || !answer) {
      log.info('no batch answer before the deadline margin; asking live', { step: request.step, customId });
      return live;
    }
    if (answer.outcome !== 'succeeded') {
      log.info('the batch entry did not succeed; asking live', { step: request.step, customId, outcome: answer.outcome });
      return live;
    }
    let fromBatch: FromBatch['fromBatch'] = { customId };
    return () => {
      const taken = fromBatch ? { fromBatch } : {};
      fromBatch = undefined;
      return taken;
    };
  }
}
