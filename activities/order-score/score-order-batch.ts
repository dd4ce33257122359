import { batchLaneKeys, type BatchEntry } from '../../common/batch-lane';
import { batchAnswerOf, type BatchEntryMessage } from '../../gateway/batch/batch-answer';
import { type BatchLaneDeps, getJson, putJson } from '../batch-lane/batch-lane-deps';
import { holdBatchEntrySpend } from '../batch-lane/batch-entry-spend';
import { SCORE_ORDER_TOOL } from './prompts';
import { scoreOrderCall, scoreOrderWith, type ScoreOrderDeps } from './score-order';
import { type ScoreOrderInput, type ScoreOrderResult } from './contracts';
import { ModelRequestInvalidError } from '../../common/errors';

/**
 * `scoreOrder` through the batch lane as order.score jobs started before the `order-score-on-batch-lane-wait`
 * patch take it: the request goes to S3 and its entry to the model's collector (signal-with-start); the answer
 * comes back in S3 and is checked like a live one. Both are safe to retry: the request is the same bytes, and the
 * collector drops an entry it already holds. The entry is held against its tenant's spend caps as every lane entry
 * is (enqueue-batch-entry.ts says why a refusal simply sends the job live).
 *
 * Newer jobs take the lane like every other step (BatchLaneWait, enqueueBatchEntry's `scoreOrder`, scoreOrder with
 * `fromBatch`). This pair stays registered only while an execution may still take the old branch: a job waiting in
 * the lane across the upgrade calls scoreOrderFromBatch when its answer comes. It goes with the patch, once
 * `npm run ops -- patches` says no such execution is left (test/histories/order-score-through-batch-lane.json
 * replays without running activities).
 */
export function createScoreOrderBatchActivities(deps: ScoreOrderDeps & { lane: BatchLaneDeps | undefined }) {
  function laneOf(): BatchLaneDeps {
    // Not retryable: the workflow takes the live path at once.
    if (!deps.lane) throw new ModelRequestInvalidError('this worker has no batch lane (BATCH_LANE=off)');
    return deps.lane;
  }
  return {
    async enqueueScoreOrderBatch(input: ScoreOrderInput & BatchEntry): Promise<void> {
      const lane = laneOf();
      const call = scoreOrderCall(deps, input);
      await holdBatchEntrySpend(lane, input.customId, call);
      await putJson(lane.store, batchLaneKeys.request(input.customId), call);
      await lane.signalCollector(deps.model, lane.settings, { customId: input.customId, replyTo: input.replyTo });
    },

    async scoreOrderFromBatch(input: ScoreOrderInput & { customId: string }): Promise<ScoreOrderResult> {
      const lane = laneOf();
      const message = await getJson<BatchEntryMessage>(lane.store, batchLaneKeys.answer(input.customId));
      const first = batchAnswerOf(message, SCORE_ORDER_TOOL.name, lane.prices[deps.model]);
      return scoreOrderWith(deps, input, first);
    },
  };
}
