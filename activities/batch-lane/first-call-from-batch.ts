import { Context, log } from '@temporalio/activity';
import { answerRefusedBefore } from '../../lib/answer-refusals';
import { batchLaneKeys, type FromBatch } from '../../common/batch-lane';
import { batchAnswerOf, type BatchEntryMessage } from '../../gateway/batch/batch-answer';
import type { ToolCallResult } from '../../gateway/model-call';
import { type BatchLaneDeps, getJson } from './batch-lane-deps';

/**
 * A lane step's first call as its batch entry answered it (at the batch price), or undefined when the step asks
 * live: no entry, or an earlier attempt found the answer wrong (ModelOutputInvalidError, carried in its heartbeat
 * details by workers/activity-failure-interceptor.ts) — that retry is for a fresh answer, so it goes live. Any
 * other retry (a killed worker, a timeout, a provider error in a repair) takes the entry's answer again: it was
 * paid for once, and asking live would pay for it twice. The repair loop's calls always go live. The answer is then
 * checked exactly like a live one by the step itself.
 */
export async function firstCallFromBatch(
  lane: BatchLaneDeps | undefined,
  input: FromBatch,
  call: { model: string; tool: { name: string } },
): Promise<ToolCallResult | undefined> {
  if (!input.fromBatch || answerRefusedBefore(Context.current().info.heartbeatDetails)) return undefined;
  if (!lane) {
    // A worker without the lane (BATCH_LANE=off since the job enqueued): the step asks live rather than fail.
    log.warn('a batch answer arrived at a worker without the batch lane; asking live', { customId: input.fromBatch.customId });
    return undefined;
  }
  const message = await getJson<BatchEntryMessage>(lane.store, batchLaneKeys.answer(input.fromBatch.customId));
  return batchAnswerOf(message, call.tool.name, lane.prices[call.model]);
}
