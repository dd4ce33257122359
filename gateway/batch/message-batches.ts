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

/** What the lane needs to know of a batch at the provider. */
export interface MessageBatchStatus {
  batchId: string;
  ended: boolean;
  /** Epoch ms. */
  createdAt: number;
  endedAt?: number;
  /** Every request the batch was created with, whatever its state. */
  requests: number;
}

/** The provider's errors as the product's typed errors (retryable or not), like the live path's. */
async function mapped<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw toProviderError(error) ?? error;
  }
}

function statusOf(batch: Anthropic.Messages.MessageBatch): MessageBatchStatus {
  const counts = batch.request_counts;
  return {
    batchId: batch.id,
    ended: batch.processing_status === 'ended',
    createdAt: Date.parse(batch.created_at),
    ...(batch.ended_at ? { endedAt: Date.parse(batch.ended_at) } : {}),
    requests: counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired,
  };
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

    async status(batchId: string): Promise<MessageBatchStatus> {
      return statusOf(await mapped(client.messages.batches.retrieve(batchId)));
    },

    /** The account's batches, newest first, page by page (the reconciler stops where they get too old). */
    async *list(): AsyncIterable<MessageBatchStatus> {
      try {
        for await (const batch of client.messages.batches.list({ limit: 100 })) yield statusOf(batch);
      } catch (error) {
        throw toProviderError(error) ?? error;
      }
    },

    /** An ended batch's results as they stream in: a 100,000-entry file is never held whole. */
    async *results(batchId: string): AsyncIterable<BatchEntryResult> {
      try {
        for await (const line of await client.messages.batches.results(batchId)) {
          const { result } = line;
          yield result.type === 'succeeded'
            ? { customId: line.custom_id, outcome: 'succeeded', message: result.message }
            : { customId: line.custom_id, outcome: result.type };
        }
      } catch (error) {
        throw toProviderError(error) ?? error;
      }
    },

    async cancel(batchId: string): Promise<void> {
      await mapped(client.messages.batches.cancel(batchId));
    },
  };
}

export type MessageBatches = ReturnType<typeof messageBatches>;
