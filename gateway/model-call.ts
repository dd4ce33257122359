import type { Priority } from '../common/task-queues';

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ToolCallRequest {
  jobId: string;
  priority: Priority;
  model: string;
  system: string;
  /** The document's text; it travels inside <document> tags so instructions and content stay apart. */
  documentText: string;
  instruction: string;
  tool: ToolSpec;
  maxTokens: number;
  signal?: AbortSignal;
}

export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface ToolCallResult {
  /** The forced tool's input as the model wrote it: unvalidated, the caller checks it against the schema. */
  toolInput: unknown;
  stopReason: string | null;
  model: string;
  requestId?: string;
  usage: CallUsage;
}

/** The one door to every model: nothing else in the workers imports the Anthropic SDK. */
export interface ModelGateway {
  callTool(request: ToolCallRequest): Promise<ToolCallResult>;
}
