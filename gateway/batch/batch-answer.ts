import type Anthropic from '@anthropic-ai/sdk';
import { ContentRefusedError } from '../../common/errors';
import type { ModelPrice } from '../../lib/config';
import type { ToolCallResult } from '../model-call';
import { BATCH_PRICE_FACTOR, costOf } from '../pricing';
import { tokenUsageOf } from '../provider-answer';

/** A succeeded entry's message as the provider wrote it (kept in S3 until its job reads it). */
export type BatchEntryMessage = Anthropic.Message;

/**
 * A succeeded batch entry's message as the answer of a tool call, like the live path's (gateway/model-gateway.ts),
 * at the batch price. A refusal is billed and thrown the same way.
 */
export function batchAnswerOf(message: Anthropic.Message, toolName: string, price: ModelPrice | undefined): ToolCallResult {
  const tokens = tokenUsageOf(message.usage);
  const usage = { ...tokens, costUsd: batchCostOf(message, price), lane: 'batch' as const };
  if (message.stop_reason === 'refusal') {
    throw new ContentRefusedError('the model declined to process this document', {
      details: { requestId: message.id, billedUsage: { ...usage, calls: 1 } },
    });
  }
  const toolUse = message.content.find(
    (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use' && block.name === toolName,
  );
  return { toolInput: toolUse?.input, stopReason: message.stop_reason, model: message.model, requestId: message.id, usage };
}

/** What a succeeded entry was billed: its tokens at the batch price. */
export function batchCostOf(message: Anthropic.Message, price: ModelPrice | undefined): number {
  return costOf(tokenUsageOf(message.usage), price) * BATCH_PRICE_FACTOR;
}
