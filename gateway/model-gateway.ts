import Anthropic from '@anthropic-ai/sdk';
import { ContentRefusedError } from '../common/errors';
import type { Priority } from '../common/task-queues';
import type { Config, ModelPrice } from '../lib/config';
import type { Logger } from '../lib/logger';
import { costOf } from './pricing';
import { toProviderError } from './provider-errors';

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

export function createAnthropicClient(config: Config['anthropic']): Anthropic {
  return new Anthropic({
    apiKey: config.apiKey.reveal(),
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    // Temporal is the only retry layer: two layers multiply attempts and hide them from metrics.
    maxRetries: 0,
    timeout: config.requestTimeoutMs,
  });
}

export function createModelGateway(deps: {
  client: Anthropic;
  prices: Record<string, ModelPrice>;
  log: Logger;
}): ModelGateway {
  const { client, prices, log } = deps;
  return {
    async callTool(request) {
      let message: Anthropic.Message;
      let requestId: string | undefined;
      try {
        const { data, request_id } = await client.messages
          .create(
            {
              model: request.model,
              max_tokens: request.maxTokens,
              system: request.system,
              messages: [
                {
                  role: 'user',
                  content: `<document>\n${request.documentText}\n</document>\n\n${request.instruction}`,
                },
              ],
              tools: [
                {
                  name: request.tool.name,
                  description: request.tool.description,
                  input_schema: request.tool.inputSchema as Anthropic.Tool.InputSchema,
                },
              ],
              tool_choice: { type: 'tool', name: request.tool.name },
            },
            request.signal ? { signal: request.signal } : undefined,
          )
          .withResponse();
        message = data;
        requestId = request_id ?? undefined;
      } catch (error) {
        const mapped = toProviderError(error);
        log.warn({ jobId: request.jobId, model: request.model, err: mapped ?? error }, 'model call failed');
        throw mapped ?? error;
      }
      const usage = {
        inputTokens: message.usage.input_tokens,
        outputTokens: message.usage.output_tokens,
        costUsd: costOf(
          { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
          prices[request.model],
        ),
      };
      if (!prices[request.model]) log.warn({ model: request.model }, 'no price for model; cost counted as 0');
      if (message.stop_reason === 'refusal') {
        throw new ContentRefusedError('the model declined to process this document', {
          details: { requestId, usage },
        });
      }
      const toolUse = message.content.find(
        (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use' && block.name === request.tool.name,
      );
      return {
        toolInput: toolUse?.input,
        stopReason: message.stop_reason,
        model: message.model,
        ...(requestId ? { requestId } : {}),
        usage,
      };
    },
  };
}
