import type { DocumentMedia } from '../common/model-media';
import type { Priority } from '../common/task-queues';
import type { TokenUsage } from './pricing';

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The model's last answer on this document and why it failed the schema: the next call shows it both. */
export interface RepairRequest {
  /** The tool input the model wrote last time. */
  previousInput: unknown;
  /** The validator's errors, already shortened (activities/repair-loop.ts). */
  errors: string[];
}

export interface ToolCallRequest {
  jobId: string;
  /** Whose spend cap the call counts against (gateway/spend); calls without one (benchmarks) are not counted. */
  tenantId?: string;
  priority: Priority;
  model: string;
  system: string;
  /** The document's text; it travels inside <document> tags so instructions and content stay apart. */
  documentText: string;
  /** A scan the model reads by looking (an image or a PDF without text): sent as its block in place of documentText. */
  documentMedia?: DocumentMedia;
  instruction: string;
  tool: ToolSpec;
  maxTokens: number;
  /**
   * Mark the document for the prompt cache too (tools and system always are). Only worth it when more calls on
   * the same text follow within the cache's lifetime: a cache write costs 1.25 × input, a read 0.1 ×.
   */
  cacheDocument?: boolean;
  /** Ask again after a schema-invalid answer, telling the model what was wrong. */
  repair?: RepairRequest;
  signal?: AbortSignal;
}

/**
 * How an answer is asked for: `tool`, a forced tool call whose input is checked and repaired afterwards;
 * `constrained`, JSON text held to the same schema by the provider (`output_config.format`), on the models
 * MODEL_CONSTRAINED_OUTPUT names.
 */
export type AnswerMode = 'tool' | 'constrained';

/** `live`: the Messages API at list price; `batch`: the Message Batches API at half of it (gateway/batch). */
export type ModelLane = 'live' | 'batch';

export interface CallUsage extends TokenUsage {
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  costUsd: number;
  /** Absent: live. */
  lane?: ModelLane;
}

export interface ToolCallResult {
  /**
   * The answer as the model wrote it, unvalidated (the caller checks it against the schema): the forced tool's input,
   * or a constrained answer's JSON parsed (its text when it is not JSON).
   */
  toolInput: unknown;
  /** Absent: `tool`. A `constrained` answer that fails the schema is not repaired (activities/repair-loop.ts). */
  mode?: AnswerMode;
  stopReason: string | null;
  model: string;
  requestId?: string;
  usage: CallUsage;
}

/**
 * A question about a text document whose answer is prose with citations (the document block carries
 * `citations: { enabled: true }`). No tool and no `output_config`: the provider refuses citations beside structured
 * outputs, and a tool's input carries none, so what the answer says is read from its text (activities/invoice/cite-invoice-fields.ts).
 * Its `documentText` is sent a line per block (gateway/citation-params.ts); citations come back as characters of it.
 */
export type CitationRequest = Pick<
  ToolCallRequest,
  'jobId' | 'tenantId' | 'priority' | 'model' | 'system' | 'documentText' | 'instruction' | 'maxTokens' | 'signal'
>;

/** One citation of an answer's text block, as the provider located it. */
export type DocumentCitation =
  | { type: 'char_location'; citedText: string; startCharIndex: number; endCharIndex: number }
  | { type: 'page_location'; citedText: string; startPageNumber: number; endPageNumber: number };

export interface CitedTextBlock {
  text: string;
  /** Empty for the answer's own words. */
  citations: DocumentCitation[];
}

export interface CitedAnswer {
  blocks: CitedTextBlock[];
  stopReason: string | null;
  model: string;
  requestId?: string;
  usage: CallUsage;
}

/** The one door to every model: nothing else in the workers imports the Anthropic SDK. */
export interface ModelGateway {
  callTool(request: ToolCallRequest): Promise<ToolCallResult>;
  /** Absent on gateways that cannot cite (tests' stand-ins): their callers go without citations. */
  citeDocument?(request: CitationRequest): Promise<CitedAnswer>;
}
