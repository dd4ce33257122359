import type { DocumentRef, JobState, Usage } from '../../job';
import type { Priority } from '../../task-queues';

/** How a document job fans out; from the DOCUMENT_* settings, fixed at submission so a replay sees the same. */
export interface DocumentJobSettings {
  maxPages: number;
  chunkTokens: number;
  chunksPerGroup: number;
  parallelGroups: number;
  parallelChunks: number;
}

export interface DocumentJobInput {
  jobId: string;
  tenantId: string;
  priority: Priority;
  document: DocumentRef;
  settings: DocumentJobSettings;
  /** How long a job whose step (or chunk) failed for good waits for an operator's retry or abandon. */
  deadLetterTimeoutMs: number;
  callbackUrl?: string;
  submittedAt: string;
}

/** What a client sees while the document is read: in the status query and in the memo (readable with no worker). */
export interface DocumentProgress {
  pagesRead: number;
  chunksDone: number;
  chunksTotal: number;
  chunksFailed: number;
  /** Tokens and cost so far, embeddings and summaries together. */
  usage: Usage;
}

/** Where the results are: S3 keys in the job's bucket, never the vectors themselves. */
export interface DocumentResult {
  pages: number;
  chunks: number;
  /** One JSON object a line: index, firstPage, lastPage, tokens, text, summary, keyTerms, embedding. */
  chunksKey: string;
  /** { title, summary, keyTopics, pages, chunks, model }. */
  summaryKey: string;
  title: string;
}

/** The status query's answer for a document job: the common job state plus its progress and result. */
export type DocumentJobState = JobState & { progress: DocumentProgress; result?: DocumentResult };

/** The pages a chunk covers (1-based, inclusive). */
export interface ChunkSpan {
  firstPage: number;
  lastPage: number;
}

/** A chunk the fan-out could not finish: which one, and why (for the dead letter and the operator). */
export interface ChunkFailure {
  index: number;
  type: string;
  message: string;
  retryable: boolean;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, costUsd: 0, calls: 0 });

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    costUsd: total.costUsd + more.costUsd,
    calls: total.calls + more.calls,
  };
}
