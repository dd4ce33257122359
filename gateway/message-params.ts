import type Anthropic from '@anthropic-ai/sdk';
import { DocumentTooLargeError } from '../common/errors';
import { isProviderFileMedia, mediaLimitProblem, type DocumentMedia, type ProviderFileMedia } from '../common/model-media';
import type { AnswerMode, ToolCallRequest } from './model-call';
import { constrainedFormatOf } from './output-format';

/** Marks the end of a prefix the provider may cache for 5 minutes (Messages API `cache_control`). */
const CACHE_BREAKPOINT = { type: 'ephemeral' } as const;
/** The id of the repeated answer in a repair turn: any id will do, it only pairs the tool_use with its result. */
const REPAIR_TOOL_USE_ID = 'toolu_repair';

type DocumentContent = Anthropic.TextBlockParam | Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam;

/**
 * A scan as the Messages API reads it: a PDF as a `document` block, an image as an `image` block, both base64 and
 * before the instruction (the vision page: images before text work best). Past the provider's limits it throws
 * rather than spend a request on a certain 400 (common/model-media.ts).
 */
export function mediaBlock(media: DocumentMedia): Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam {
  if (isProviderFileMedia(media)) return providerFileBlock(media);
  const problem = mediaLimitProblem({ mediaType: media.mediaType, sizeBytes: decodedBytes(media.base64), pages: media.pages });
  if (problem) throw new DocumentTooLargeError(problem);
  if (media.mediaType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: media.base64 } };
  }
  return { type: 'image', source: { type: 'base64', media_type: media.mediaType, data: media.base64 } };
}

/**
 * A scan uploaded once to the Files API, named by its id (the request must carry the Files API beta header,
 * gateway/files/provider-files.ts). Held to the inline limits all the same: MODEL_FILES_API=false must send the
 * same scans inline, and the page and image limits are the model's, whatever the source.
 */
function providerFileBlock(media: ProviderFileMedia): Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam {
  const problem = mediaLimitProblem({ mediaType: media.mediaType, sizeBytes: media.sizeBytes, pages: media.pages });
  if (problem) throw new DocumentTooLargeError(problem);
  const source = { type: 'file', file_id: media.fileId } as const;
  return media.mediaType === 'application/pdf' ? { type: 'document', source } : { type: 'image', source };
}

/** Whether the request names a file uploaded to the Files API, so it needs that API's beta header. */
export function referencesProviderFile(request: Pick<ToolCallRequest, 'documentMedia'>): boolean {
  return request.documentMedia !== undefined && isProviderFileMedia(request.documentMedia);
}

function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

export interface MessageParams {
  system: Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
  /** The forced tool; empty when the answer is constrained by `output_config` instead. */
  tools: Anthropic.Tool[];
  output_config?: { format: Anthropic.JSONOutputFormat };
}

/** `constrained` for the models that take `output_config.format` (MODEL_CONSTRAINED_OUTPUT), `tool` for the rest. */
export function answerModeOf(model: string, constrainedModels: readonly string[] = []): AnswerMode {
  return constrainedModels.includes(model) ? 'constrained' : 'tool';
}

/**
 * The request as the provider reads it, in its cache order: tools, system, then messages. The system block carries
 * a cache breakpoint, which caches the tool schema with it (the prefix runs tools → system); the document carries
 * one when the caller expects more calls on it. A repair repeats the model's answer as its tool call and returns
 * the validator's errors as that call's error result, so the document prefix stays the same as the first call's.
 */
export function messageParams(request: ToolCallRequest, mode: AnswerMode = 'tool'): MessageParams {
  if (mode === 'constrained') return constrainedParams(request);
  const tools: Anthropic.Tool[] = [
    {
      name: request.tool.name,
      description: request.tool.description,
      input_schema: request.tool.inputSchema as Anthropic.Tool.InputSchema,
    },
  ];
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: request.system, cache_control: CACHE_BREAKPOINT }];
  const document = documentBlock(request);
  const ask: Anthropic.MessageParam = { role: 'user', content: [document, { type: 'text', text: request.instruction }] };
  const repair = request.repair;
  if (!repair) return { system, messages: [ask], tools };
  const feedback = `Your ${request.tool.name} input did not match its schema:\n${repair.errors.map((error) => `- ${error}`).join('\n')}\nCall ${request.tool.name} again with the whole input corrected.`;
  if (!isObject(repair.previousInput)) {
    const noCall: Anthropic.MessageParam = { role: 'user', content: [document, { type: 'text', text: `${request.instruction}\n\n${feedback}` }] };
    return { system, messages: [noCall], tools };
  }
  return {
    system,
    tools,
    messages: [
      ask,
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: REPAIR_TOOL_USE_ID, name: request.tool.name, input: repair.previousInput }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: REPAIR_TOOL_USE_ID, is_error: true, content: feedback }],
      },
    ],
  };
}

/** The document as text in tags or as its scan, with a cache breakpoint when more calls on it follow. */
function documentBlock(request: ToolCallRequest): DocumentContent {
  const cache = request.cacheDocument ? { cache_control: CACHE_BREAKPOINT } : {};
  return request.documentMedia
    ? { ...mediaBlock(request.documentMedia), ...cache }
    : { type: 'text', text: `<document>\n${request.documentText}\n</document>`, ...cache };
}

/**
 * A constrained ask: the same system, document and instruction, no tool, the tool's schema as `output_config`. A
 * repair is asked as a fresh call: a constrained answer cannot fail the schema the way a repair would explain, and
 * a `tool_use` turn would name a tool the request does not define.
 */
function constrainedParams(request: ToolCallRequest): MessageParams {
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: request.system, cache_control: CACHE_BREAKPOINT }];
  const document = documentBlock(request);
  return {
    system,
    messages: [{ role: 'user', content: [document, { type: 'text', text: request.instruction }] }],
    tools: [],
    output_config: { format: constrainedFormatOf(request.tool) },
  };
}

/**
 * The characters of what the provider tokenizes as text: system prompt, message text and the tools as sent (JSON).
 * A scan's base64 is left out: the provider counts an image by its pixels, not its encoding (mediaTokenEstimate).
 */
export function promptCharactersOf(params: MessageParams): number {
  const system = params.system.reduce((sum, block) => sum + block.text.length, 0);
  const messages = JSON.stringify(params.messages, (key, value: unknown) => (key === 'data' && typeof value === 'string' ? '' : value));
  const format = params.output_config ? JSON.stringify(params.output_config).length : 0;
  return system + messages.length + JSON.stringify(params.tools).length + format;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The whole Messages request: a forced tool call, or (constrained) JSON output with no tool. The live call sends
 * it; a batch entry carries the tool form as `params`.
 */
export function toolCallParams(request: ToolCallRequest, mode: AnswerMode = 'tool'): Anthropic.MessageCreateParamsNonStreaming {
  const { tools, ...params } = messageParams(request, mode);
  if (mode === 'constrained') return { model: request.model, max_tokens: request.maxTokens, ...params };
  return { model: request.model, max_tokens: request.maxTokens, ...params, tools, tool_choice: { type: 'tool', name: request.tool.name } };
}
