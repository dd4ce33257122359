import { ModelRequestInvalidError } from '../../common/errors';
import type { BatchEntryOutcome } from '../../common/batch-lane';
import type { BatchEntryResult, BatchToolCall, MessageBatches, MessageBatchStatus } from '../../gateway/batch/message-batches';

interface ScriptedBatch {
  id: string;
  createdAt: number;
  customIds: string[];
  cancelled: boolean;
  /** Times its results were read. */
  reads: number;
}

export interface ScriptedProviderOptions {
  /** Batches never end: the jobs wait until their deadline margin. */
  neverEnds?: boolean;
  /** The provider refuses every batch. */
  failCreate?: boolean;
  /** Each entry's fate by its request (default `succeeded`). */
  outcomeOf?: (call: BatchToolCall, customId: string) => BatchEntryOutcome;
}

/**
 * The Message Batches API as a record: batches end at once (or never), a cancelled one's entries come back
 * `canceled`, and `billed` counts each custom id answered `succeeded` in a batch whose results were read — what the
 * provider would bill. Throws as the provider would; the lane's code is what the tests exercise.
 */
export function scriptedMessageBatches(options: ScriptedProviderOptions = {}) {
  const batches: ScriptedBatch[] = [];
  const calls = new Map<string, BatchToolCall>();
  const outcome = (batch: ScriptedBatch, customId: string): BatchEntryOutcome =>
    batch.cancelled ? 'canceled' : (options.outcomeOf?.(calls.get(customId) as BatchToolCall, customId) ?? 'succeeded');
  const find = (batchId: string) => {
    const batch = batches.find((candidate) => candidate.id === batchId);
    if (!batch) throw new Error(`no batch ${batchId}`);
    return batch;
  };
  const statusOf = (batch: ScriptedBatch): MessageBatchStatus => {
    const ended = batch.cancelled || !options.neverEnds;
    return { batchId: batch.id, ended, createdAt: batch.createdAt, ...(ended ? { endedAt: batch.createdAt } : {}), requests: batch.customIds.length };
  };
  const api: MessageBatches = {
    async create(entries) {
      if (options.failCreate) throw new ModelRequestInvalidError('the provider refused the batch');
      const batch: ScriptedBatch = { id: `msgbatch_${batches.length + 1}`, createdAt: Date.now(), customIds: [], cancelled: false, reads: 0 };
      for (const { customId, call } of entries) {
        batch.customIds.push(customId);
        calls.set(customId, call);
      }
      batches.push(batch);
      return batch.id;
    },
    async status(batchId) {
      return statusOf(find(batchId));
    },
    async *list() {
      for (const batch of [...batches].reverse()) yield statusOf(batch);
    },
    async *results(batchId): AsyncIterable<BatchEntryResult> {
      const batch = find(batchId);
      batch.reads += 1;
      for (const customId of batch.customIds) {
        const result = outcome(batch, customId);
        yield result === 'succeeded' ? { customId, outcome: result, message: answerOf(customId, calls.get(customId)) } : { customId, outcome: result };
      }
    },
    async cancel(batchId) {
      find(batchId).cancelled = true;
    },
  };
  /** Custom id → times it was answered `succeeded` in a batch that ended uncancelled: what would be billed. */
  const billed = () => {
    const counts = new Map<string, number>();
    for (const batch of batches) {
      if (batch.cancelled) continue;
      for (const customId of batch.customIds) if (outcome(batch, customId) === 'succeeded') counts.set(customId, (counts.get(customId) ?? 0) + 1);
    }
    return counts;
  };
  return { api, batches, billed };
}

/** A tool-use message answering the call with an empty input: the steps' fakes in the workflow tier ignore it. */
function answerOf(customId: string, call: BatchToolCall | undefined) {
  return {
    id: `msg_${customId}`,
    type: 'message',
    role: 'assistant',
    model: call?.model ?? 'test-model',
    content: [{ type: 'tool_use', id: `toolu_${customId}`, name: call?.tool.name ?? 'tool', input: {} }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  } as unknown as NonNullable<BatchEntryResult['message']>;
}
