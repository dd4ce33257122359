import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { EnqueueBatchEntryInput } from '../../activities/batch-lane/enqueue-batch-entry';
import type { SubmitMessageBatchInput } from '../../activities/batch-lane/collector-activities';
import { type BatchCollectorInput, type BatchEntryOutcome, type BatchLaneStep, batchEntrySignal } from '../../common/batch-lane';
import { ModelRequestInvalidError } from '../../common/errors';

export interface ScriptedLaneOptions {
  maxRequests?: number;
  /** The provider refuses every submission: the entries come back `errored`. */
  failSubmit?: boolean;
  /** Batches never end: the jobs wait until their deadline margin. */
  neverEnds?: boolean;
  /** Each entry's fate by the step it came from (default `succeeded`). */
  outcomeOf?: (step: BatchLaneStep) => BatchEntryOutcome;
}

/**
 * The lane's activities with a scripted provider: enqueue signals-with-start a collector of the test's own on the
 * worker's queue (the real collector workflow), the provider is a record of the batches submitted, and
 * `outcomeOf` decides each entry's fate. `enqueued` records which step asked, in order.
 */
export function scriptedBatchLane(client: Client, options: ScriptedLaneOptions = {}) {
  const collectorId = `batch-collector:test-${randomUUID()}`;
  const batches: string[][] = [];
  /** Entries whose spend holds the collector released (never billed). */
  const released: string[] = [];
  const stepOf = new Map<string, BatchLaneStep>();
  const enqueued: EnqueueBatchEntryInput[] = [];
  const activities = {
    async enqueueBatchEntry(input: EnqueueBatchEntryInput): Promise<void> {
      enqueued.push(input);
      stepOf.set(input.customId, input.step);
      const settings = { collectWindowMs: 300, maxRequests: options.maxRequests ?? 50, pollIntervalMs: 200 };
      await client.workflow.signalWithStart('batchCollectorWorkflow', {
        workflowId: collectorId,
        taskQueue: Context.current().info.taskQueue,
        args: [{ model: 'test-model', settings } satisfies BatchCollectorInput],
        signal: batchEntrySignal,
        signalArgs: [{ customId: input.customId, replyTo: input.replyTo, requestBytes: 1_000 }],
      });
    },
    async submitMessageBatch(input: SubmitMessageBatchInput): Promise<{ batchId: string }> {
      if (options.failSubmit) throw new ModelRequestInvalidError('the provider refused the batch');
      batches.push(input.customIds);
      return { batchId: `msgbatch_${batches.length}` };
    },
    async messageBatchHasEnded(): Promise<boolean> {
      return !options.neverEnds;
    },
    async releaseBatchEntrySpend({ customIds }: { customIds: string[] }): Promise<void> {
      released.push(...customIds);
    },
    async storeMessageBatchResults({ batchId }: { batchId: string }): Promise<Record<string, BatchEntryOutcome>> {
      const ids = batches[Number(batchId.split('_')[1]) - 1] ?? [];
      return Object.fromEntries(ids.map((id) => [id, options.outcomeOf?.(stepOf.get(id) ?? 'classifyDocument') ?? 'succeeded']));
    },
  };
  return { activities, batches, enqueued, collectorId, released };
}
