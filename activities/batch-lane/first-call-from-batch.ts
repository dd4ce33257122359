import { Context, log } from '@temporalio/activity';
import { batchLaneKeys, type FromBatch } from '../../common/batch-lane';
import { batchAnswerOf, type BatchEntryMessage } from '../../gateway/batch/batch-answer';
import type { ToolCallResult } from '../../gateway/model-call';
import { type BatchLaneDeps, getJson } from './batch-lane-deps';

/**
 * A lane step's first call as its batch entry answered it (at the batch price), or undefined when the step asks
 * live: no entry, or a retried attempt — a retry is for a fresh answer, so it and the repair loop's calls go live.
 * The answer is then checked exactly like a live one by the step itself.
 */
export async function firstCallFromBatch(
  lane: BatchLaneDeps | undefined,
  input: FromBatch,
  call: { model: string; tool: { name: string } },
): Promise<ToolCallResult | undefined> {
  if (!input.fromBatch || Context.current().info.attempt > 1) return undefined;
  if (!lane) {
    // A worker without the lane (BATCH_LANE=off since the job enqueued): the step asks live rather than fail.
    log.warn('a batch answer arrived at a worker without the batch lane; asking live', { customId: input.fromBatch.customId });
    return undefined;
  }
  const message = await getJson<BatchEntryMessage>(lane.store, batchLaneKeys.answer(input.fromBatch.customId));
  return batchAnswerOf(message, call.tool.name, lane.prices[call.model]);
}
