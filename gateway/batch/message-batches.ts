import type Anthropic from '@anthropic-ai/sdk';
import type { BatchEntryOutcome } from '../../common/batch-lane';
import type { ToolCallRequest } from '../model-call';
import { toolCallParams } from '../message-params';
import { toProviderError } from '../provider-errors';

/** A tool call as a batch entry asks for it: the live request without its abort signal. */
export type BatchToolCall = Omit<ToolCallRequest, 'signal'>;

export interface BatchEntryResult {
  customId: string;
  outcome: BatchEntryOutcome;
  /** The answer of a succeeded entry. */
  message?: Anthropic.Message;
}

/** The provider's errors as the product's typed errors (retryable or not), like the live path's. */
async function mapped<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw toProviderError(error) ?? error;
  }
}

/** The Message Batches API through the SDK: the batch lane's only door to the provider. */
export function messageBatches(client: Anthropic) {
  return {
    async create(entries: Array<{ customId: string; call: BatchToolCall }>): Promise<string> {
      const batch = await mapped(
        client.messages.batches.create({
          requests: entries.map(({ customId, call }) => ({ custom_id: customId, params: toolCallParams(call) })),
        }),
      );
      return batch.id;
    },

    async hasEnded(batchId: string): Promise<boolean> {
      return (await mapped(client.messages.batches.retrieve(batchId))).processing_status === 'ended';
    },

    async results(batchId: string): Promise<BatchEntryResult[]> {
      const results: BatchEntryResult[] = [];
      for await (const line of await mapped(client.messages.batches.results(batchId))) {
        const { result } = line;
        results.push(
          result.type === 'succeeded'
            ? { customId: line.custom_id, outcome: 'succeeded', message: result.message }
            : { customId: line.custom_id, outcome: result.type },
        );
      }
      return results;
    },

    async cancel(batchId: string): Promise<void> {
      await mapped(client.messages.batches.cancel(batchId));
    },
  };
}

export type MessageBatches = ReturnType<typeof messageBatches>;
