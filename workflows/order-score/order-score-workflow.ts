import { patched, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import { orderScoreJobType } from '../../common/job-types/order-score/definition';
import { decisionOf, type OrderScoreResult } from '../../common/job-types/order-score/order-score';
import type { OrderScoreJobInput, OrderScoreJobState } from '../../common/job-types/order-score/order-score-job';
import { modelCallOptions } from '../activity-options';
import { answerThroughBatchLane, BatchLaneWait, batchWaitMs } from '../batch-lane/batch-lane-wait';
import { JobRun } from '../job-run';
import { PATCHES } from '../patches';

const modelSteps = proxyActivities<JobActivities>(modelCallOptions);

/**
 * `order.score`: one model call scores the order; inside the grey zone (input.scoreBand) a person decides. One
 * workflow and one activity, nothing else, so it costs what a plain queue would (bench: throughput); a bulk order
 * may take its answer from the batch lane first (workflows/batch-lane/batch-lane-wait.ts).
 */
export async function orderScoreWorkflow(input: OrderScoreJobInput): Promise<OrderScoreJobState> {
  const job = new JobRun(input, orderScoreJobType);
  const { state } = job;
  state.input = input.input;
  const band = input.scoreBand ?? orderScoreJobType.review;
  const batchLane = new BatchLaneWait(input);

  return job.settle(async () => {
    const order = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority, order: input.input };
    const onEnter = () => job.tracker.setStatus('processing', 'scoreOrder');

    /** A bulk order's first call may take the batch lane (half the price), as every type's steps do. */
    const scoreThroughLaneWait = async () => {
      const fromBatch = await batchLane.firstCall({ step: 'scoreOrder', input: order }, onEnter);
      return job.run('scoreOrder', () => modelSteps.scoreOrder({ ...order, ...fromBatch() }));
    };
    /** Orders that entered the lane before `PATCHES.orderScoreOnBatchLaneWait`: their own pair of batch activities. */
    const scoreThroughOwnLaneActivities = async () => {
      const fromBatch = await answerThroughBatchLane(input, (entry) => modelSteps.enqueueScoreOrderBatch({ ...order, ...entry }), onEnter);
      return job.run('scoreOrder', () =>
        fromBatch ? modelSteps.scoreOrderFromBatch({ ...order, customId: fromBatch.customId }) : modelSteps.scoreOrder(order),
      );
    };
    // The patch is asked only when the lane is for this job: either path calls scoreOrder live otherwise, and an
    // interactive order's history stays free of markers.
    const laneWaitPath = batchWaitMs(input, Date.now()) === undefined || patched(PATCHES.orderScoreOnBatchLaneWait.id);
    const scored = laneWaitPath ? await scoreThroughLaneWait() : await scoreThroughOwnLaneActivities();
    job.tracker.addUsage(scored.usage);
    if (scored.outcome === 'valid') {
      const { proposal } = scored;
      state.proposal = proposal;
      const decision = decisionOf(proposal, band);
      if (decision !== 'review') {
        state.result = { score: proposal.score, decision, reasons: proposal.reasons, decidedBy: 'model' } satisfies OrderScoreResult;
        return job.finish('completed');
      }
    } else {
      state.validationErrors = scored.errors;
    }

    const decision = await job.review.await(job.notify);
    if (!decision) return job.finish('review_expired');
    const decidedAt = new Date().toISOString();
    const proposal = scored.outcome === 'valid' ? scored.proposal : undefined;
    const reasons = proposal?.reasons ?? [];
    if (decision.decision === 'reject') {
      state.review = { decision: 'rejected', reviewer: decision.reviewer, reason: decision.reason, decidedAt };
      state.result = { score: proposal?.score, decision: 'decline', reasons: [...reasons, decision.reason], decidedBy: 'reviewer' };
    } else {
      state.review = { decision: 'approved', reviewer: decision.reviewer, decidedAt };
      state.result = { score: proposal?.score, decision: 'approve', reasons, decidedBy: 'reviewer' };
    }
    return job.finish('completed');
  });
}
