import type { FromBatch } from '../../common/batch-lane';
import type { DocumentRef, Usage } from '../../common/job';
import type { TicketsDigest } from '../../common/job-types/tickets-digest/digest';
import type { JobContext } from '../step-contracts';

/** Inputs and results of the digest's activities: S3 keys and small JSON, never the tickets themselves. */

export interface PrepareTicketBatchesInput extends JobContext {
  tickets: DocumentRef;
}
export interface PrepareTicketBatchesResult {
  ticketCount: number;
  /** The facts the merge needs (ids, subjects, priorities, counts), as JSON in S3. */
  factsKey: string;
  /** One object of compact ticket lines per batch, in file order. */
  batchKeys: string[];
  attempt: number;
}

export interface SummariseTicketBatchInput extends JobContext {
  batchKey: string;
}
/** …as the step takes it: its first call may have been answered in a batch (the batch lane). */
export type SummariseTicketBatchStepInput = SummariseTicketBatchInput & FromBatch;
export interface SummariseTicketBatchResult {
  summaryKey: string;
  themes: number;
  urgent: number;
  usage: Usage;
  attempt: number;
}

export interface WriteTicketDigestInput extends JobContext {
  factsKey: string;
  summaryKeys: string[];
}
/** …as the step takes it: its narrative call may have been answered in a batch (the batch lane). */
export type WriteTicketDigestStepInput = WriteTicketDigestInput & FromBatch;
export interface WriteTicketDigestResult {
  digest: TicketsDigest;
  digestKey: string;
  usage: Usage;
  attempt: number;
}
