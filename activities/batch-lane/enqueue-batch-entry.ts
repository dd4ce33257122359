import { type BatchEntry, type BatchLaneStep, batchLaneKeys } from '../../common/batch-lane';
import { ModelRequestInvalidError } from '../../common/errors';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import type { ModelStepInput } from '../step-contracts';
import type { DocumentChunksInput, ProcessDocumentChunkInput } from '../document/contracts';
import type { ScoreOrderInput } from '../order-score/contracts';
import type { SummariseTicketBatchInput, WriteTicketDigestInput } from '../tickets-digest/contracts';
import type { BatchLaneDeps } from './batch-lane-deps';
import { holdBatchEntrySpend } from './batch-entry-spend';

/** Each lane step's input, as its activity takes it. */
export interface BatchLaneStepInputs {
  classifyDocument: ModelStepInput;
  extractInvoiceFields: ModelStepInput;
  processDocumentChunk: ProcessDocumentChunkInput;
  summarizeDocument: DocumentChunksInput;
  summariseTicketBatch: SummariseTicketBatchInput;
  writeTicketDigest: WriteTicketDigestInput;
  scoreOrder: ScoreOrderInput;
}

/** Each lane step's first call, built by the same function its live activity sends it with. */
export type FirstCalls = { [S in BatchLaneStep]: (input: BatchLaneStepInputs[S]) => Promise<BatchToolCall> };

/** One step's request for the lane: which step, with its input. */
export type BatchLaneStepRequest = { [S in BatchLaneStep]: { step: S; input: BatchLaneStepInputs[S] } }[BatchLaneStep];

/** …and where the answer goes. */
export type EnqueueBatchEntryInput = BatchLaneStepRequest & BatchEntry;

/**
 * The job's side of the lane for every step: the step's first call goes to S3 under the entry's custom id, and the
 * entry to its model's collector (signal-with-start). Safe to retry: the request is the same bytes, and the
 * collector drops an entry it already holds.
 *
 * The entry is first held against its tenant's spend caps (batch-entry-spend.ts). A refusal is thrown as the live
 * path throws it and is not retried: the workflow then asks live, where the same cap refuses the call (a live call
 * costs more than its batch entry) and the job waits in `budget_wait` through JobRun.withSpendCapWaits like every
 * other refused call. That needs no second wait loop nor any workflow change, and costs one extra refused hold.
 */
export function createEnqueueBatchEntry(lane: BatchLaneDeps | undefined, firstCalls: FirstCalls) {
  return async function enqueueBatchEntry(entry: EnqueueBatchEntryInput): Promise<void> {
    // Not retryable: the workflow takes the live path at once.
    if (!lane) throw new ModelRequestInvalidError('this worker has no batch lane (BATCH_LANE=off)');
    const call = await firstCallOf(firstCalls, entry);
    await holdBatchEntrySpend(lane, entry.customId, call);
    const body = JSON.stringify(call);
    await lane.store.put(batchLaneKeys.request(entry.customId), body, { contentType: 'application/json' });
    await lane.signalCollector(call.model, lane.settings, {
      customId: entry.customId,
      replyTo: entry.replyTo,
      requestBytes: Buffer.byteLength(body),
    });
  };
}

function firstCallOf(firstCalls: FirstCalls, entry: EnqueueBatchEntryInput): Promise<BatchToolCall> {
  switch (entry.step) {
    case 'classifyDocument':
      return firstCalls.classifyDocument(entry.input);
    case 'extractInvoiceFields':
      return firstCalls.extractInvoiceFields(entry.input);
    case 'processDocumentChunk':
      return firstCalls.processDocumentChunk(entry.input);
    case 'summarizeDocument':
      return firstCalls.summarizeDocument(entry.input);
    case 'summariseTicketBatch':
      return firstCalls.summariseTicketBatch(entry.input);
    case 'writeTicketDigest':
      return firstCalls.writeTicketDigest(entry.input);
    case 'scoreOrder':
      return firstCalls.scoreOrder(entry.input);
  }
}
