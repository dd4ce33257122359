import type { DocumentRef, JobStart, JobState, Usage } from '../../job';
import type { DocumentResult } from './definition';

export type { DocumentResult };

/**
 * How a document job reads and fans out: the worker's DOCUMENT_* settings, which readDocumentPages returns, so
 * they are in history and a replay sees the same; a job's input may override any of them (tests, benchmarks).
 */
export interface DocumentJobSettings {
  maxPages: number;
  chunkTokens: number;
  chunksPerGroup: number;
  parallelGroups: number;
  parallelChunks: number;
}

/** What the API starts a document job with: the common start and the uploaded file, like an invoice. */
export interface DocumentJobInput extends JobStart {
  document: DocumentRef;
  settings?: Partial<DocumentJobSettings>;
}

/** The status query's answer for a document job: the common job state (with its progress) and its result. */
export type DocumentJobState = JobState & { result?: DocumentResult };

/** The pages a chunk covers (1-based, inclusive). */
export interface ChunkSpan {
  firstPage: number;
  lastPage: number;
  /** A page without a text layer, alone in its chunk: the model reads the page itself (a one-page PDF). */
  scanned?: true;
}

/** A chunk the fan-out could not finish: which one, and why (for the dead letter and the operator). */
export interface ChunkFailure {
  index: number;
  type: string;
  message: string;
  retryable: boolean;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, costUsd: 0, calls: 0 });
