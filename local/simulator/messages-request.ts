import { outputSchemaProblem } from './output-format';

/**
 * The subset of the Messages API request the simulator understands, and its validation. Messages
 * follow the provider's wording ("messages: Field required") so client errors look familiar.
 */

export interface ContentBlock {
  type: string;
  [field: string]: unknown;
}

export type MessageContent = string | ContentBlock[];

export interface InputMessage {
  role: 'user' | 'assistant';
  content: MessageContent;
}

export interface ToolDefinition {
  name: string;
  input_schema: Record<string, unknown>;
  [field: string]: unknown;
}

export type ToolChoice =
  | { type: 'auto' | 'any' | 'none'; [field: string]: unknown }
  | { type: 'tool'; name: string; [field: string]: unknown };

/** Structured outputs: the answer's text is JSON held to `schema` (the API's `output_config.format`). */
export interface OutputConfig {
  format?: { type: 'json_schema'; schema: Record<string, unknown> } | null;
  [field: string]: unknown;
}

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: InputMessage[];
  system?: MessageContent;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  output_config?: OutputConfig;
  stream?: boolean;
}

/** count_tokens takes the same body without `max_tokens`. */
export type CountTokensRequest = Omit<MessagesRequest, 'max_tokens' | 'stream'>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isContent(value: unknown): value is MessageContent {
  if (typeof value === 'string') return true;
  return Array.isArray(value) && value.every((block) => isRecord(block) && typeof block.type === 'string');
}

function checkMessages(value: unknown): string | null {
  if (value === undefined) return 'messages: Field required';
  if (!Array.isArray(value)) return 'messages: Input should be a valid list';
  if (value.length === 0) return 'messages: at least one message is required';
  for (const [index, message] of value.entries()) {
    if (!isRecord(message)) return `messages.${index}: Input should be a valid dictionary`;
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    }
    if (!isContent(message.content)) return `messages.${index}.content: Input should be a string or a list of blocks`;
  }
  return null;
}

function checkTools(tools: unknown, toolChoice: unknown): string | null {
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
    for (const [index, tool] of tools.entries()) {
      if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name === '')
        return `tools.${index}.name: Field required`;
      if (!isRecord(tool.input_schema)) return `tools.${index}.input_schema: Field required`;
    }
  }
  if (toolChoice === undefined) return null;
  if (!isRecord(toolChoice) || !['auto', 'any', 'tool', 'none'].includes(String(toolChoice.type))) {
    return "tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'";
  }
  if (toolChoice.type === 'tool') {
    const names = Array.isArray(tools) ? tools.map((tool: { name?: unknown }) => tool.name) : [];
    if (typeof toolChoice.name !== 'string') return 'tool_choice.name: Field required';
    if (!names.includes(toolChoice.name)) return `tool_choice: tool '${toolChoice.name}' not found in tools`;
  }
  return null;
}

function checkOutputConfig(value: unknown): string | null {
  if (value === undefined) return null;
  if (!isRecord(value)) return 'output_config: Input should be a valid dictionary';
  const format = value.format;
  if (format === undefined || format === null) return null;
  if (!isRecord(format) || format.type !== 'json_schema') return "output_config.format.type: Input should be 'json_schema'";
  if (!isRecord(format.schema)) return 'output_config.format.schema: Field required';
  return outputSchemaProblem(format.schema);
}

function checkCommon(body: Record<string, unknown>): string | null {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (body.system !== undefined && !isContent(body.system)) return 'system: Input should be a string or text blocks';
  return checkMessages(body.messages) ?? checkTools(body.tools, body.tool_choice) ?? checkOutputConfig(body.output_config);
}

export function parseMessagesRequest(body: unknown): Parsed<MessagesRequest> {
  if (!isRecord(body)) return { ok: false, message: 'request body must be a JSON object' };
  if (body.stream === true) {
    return { ok: false, message: 'stream: streaming is not simulated; send a non-streaming request' };
  }
  if (body.max_tokens === undefined) return { ok: false, message: 'max_tokens: Field required' };
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) {
    return { ok: false, message: 'max_tokens: Input should be a positive integer' };
  }
  const problem = checkCommon(body);
  return problem ? { ok: false, message: problem } : { ok: true, value: body as unknown as MessagesRequest };
}

export function parseCountTokensRequest(body: unknown): Parsed<CountTokensRequest> {
  if (!isRecord(body)) return { ok: false, message: 'request body must be a JSON object' };
  const problem = checkCommon(body);
  return problem ? { ok: false, message: problem } : { ok: true, value: body as unknown as CountTokensRequest };
}
