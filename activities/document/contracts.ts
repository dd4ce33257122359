import type { ChunkFailure, ChunkSpan, DocumentJobSettings } from '../../common/job-types/document/document-job';
import type { BudgetWait, DocumentRef, Usage } from '../../common/job';
import type { JobContext } from '../step-contracts';

/** Inputs and results of the document activities: S3 keys, counts and page ranges, never text or vectors. */

export interface ReadDocumentPagesInput extends JobContext {
  document: DocumentRef;
  /** The job's overrides of the worker's DOCUMENT_* settings. */
  settings?: Partial<DocumentJobSettings>;
}
export interface ReadDocumentPagesResult {
  pages: number;
  tokens: number;
  /** Where every other step finds the chunks (documents/<tenant>/<job>). */
  prefix: string;
  /** Page range of each chunk, by index. */
  spans: ChunkSpan[];
  /** Every chunk's text in one object (documentKeys.chunkTexts); absent in runs that stored a text per chunk. */
  chunkTextsKey?: string;
  /** The settings this job runs with: the worker's, under the job's overrides. */
  settings: DocumentJobSettings;
  attempt: number;
}

export interface ProcessDocumentChunkInput extends JobContext {
  prefix: string;
  index: number;
  span: ChunkSpan;
  /** ReadDocumentPagesResult's: where the chunk's text is (chunk-texts.ts). */
  chunkTextsKey?: string;
  /**
   * The chunk's group embeds its chunks together afterwards (embed-document-chunks.ts): the step stores the chunk
   * without its vector. Absent in runs from before that (workflows/patches.ts embeddingsInRequests).
   */
  embedInGroup?: boolean;
}
export interface ProcessDocumentChunkResult {
  index: number;
  usage: Usage;
  /** The chunk's result was already in S3 (an attempt that finished but was never reported): no call was made. */
  reused: boolean;
  attempt: number;
}

export interface ProcessDocumentChunksInput extends JobContext {
  prefix: string;
  chunkTextsKey?: string;
  chunks: Array<{ index: number; span: ChunkSpan }>;
  /** The group's chunks in flight at once inside the step. */
  parallelChunks: number;
  /** The step's retry policy's maximumAttempts: the last attempt reports its chunks' failures instead of throwing. */
  maximumAttempts: number;
}
export interface ProcessDocumentChunksResult {
  /** Chunks whose summary is stored (reused ones included), ascending. */
  done: number[];
  /** Chunks that failed in the attempt that returned, with what their failed calls cost. */
  failed: Array<ChunkFailure & { billedUsage?: Usage }>;
  /** Cost of the done chunks' calls not reported before. */
  usage: Usage;
  /** A chunk's paid call would have passed the tenant's spend cap: no chunk started after it, and these wait. */
  spendCap?: Omit<BudgetWait, 'since'>;
  waiting: number[];
  attempt: number;
}

export interface EmbedDocumentChunksInput extends JobContext {
  prefix: string;
  /** The group's chunks whose results the workflow holds: those without a vector yet are embedded. */
  indexes: number[];
}
export interface EmbedDocumentChunksResult {
  /** Chunks embedded by this step (earlier attempts' included), and the requests' cost not reported before. */
  embedded: number;
  usage: Usage;
  attempt: number;
}

export interface DocumentChunksInput extends JobContext {
  prefix: string;
  chunks: number;
  pages: number;
}
export interface WriteDocumentChunksResult {
  chunksKey: string;
  bytes: number;
  attempt: number;
}
export interface SummarizeDocumentResult {
  summaryKey: string;
  title: string;
  usage: Usage;
  attempt: number;
}

/** What processDocumentChunk writes per chunk, and the JSONL line writeDocumentChunks makes of it. */
export interface ChunkRecord extends ChunkSpan {
  index: number;
  tokens: number;
  text: string;
  summary: string;
  keyTerms: string[];
  embedding: number[];
  embeddingModel: string;
}
