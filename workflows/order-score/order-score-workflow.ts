import { proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import type { JobState, JsonJobInput } from '../../common/job';
import { orderScoreJobType } from '../../common/job-types/order-score/definition';
import { decisionOf, type OrderScoreInput, type OrderScoreResult } from '../../common/job-types/order-score/order-score';
import { modelCallOptions } from '../activity-options';
import { answerThroughBatchLane } from '../batch-lane/batch-lane-wait';
import { JobRun } from '../job-run';

const modelSteps = proxyActivities<JobActivities>(modelCallOptions);

/**
 * `order.score`: one model call scores the order; inside the grey zone (input.scoreBand) a person decides. One
 * workflow and one activity, nothing else, so it costs what a plain queue would (bench: throughput).
 */
export async function orderScoreWorkflow(input: JsonJobInput<OrderScoreInput>): Promise<JobState> {
  const job = new JobRun(input, orderScoreJobType);
  const { state } = job;
  state.input = input.input;
  const band = input.scoreBand ?? orderScoreJobType.review;

  return job.settle(async () => {
    const order = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority, order: input.input };
    const fromBatch = await answerThroughBatchLane(
      input,
      (entry) => modelSteps.enqueueScoreOrderBatch({ ...order, ...entry }),
      () => job.tracker.setStatus('processing', 'scoreOrder'),
    );
    const scored = await job.run('scoreOrder', () =>
      fromBatch ? modelSteps.scoreOrderFromBatch({ ...order, customId: fromBatch.customId }) : modelSteps.scoreOrder(order),
    );
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
