import Anthropic from '@anthropic-ai/sdk';
import { ContentRefusedError, ProviderFileMissingError } from '../common/errors';
import { mediaTokenEstimate } from '../common/model-media';
import type { Config, ModelPrice } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { CallCost } from './budget/bucket-math';
import { type BudgetSettings, poolFor, type TokenBudget } from './budget/token-budget';
import { GatewayEvents } from './gateway-events';
import { citableLinesOf, citationParams, citationPromptCharacters, citedBlocksOf } from './citation-params';
import type { CallUsage, ModelGateway } from './model-call';
import type { ReservingCall } from './reserve-call';
import type { DocumentMedia } from '../common/model-media';
import { constrainedAnswerOf } from './output-format';
import { costOf } from './pricing';
import { toProviderError } from './provider-errors';
import { reserveCall } from './reserve-call';
import { settleProviderAnswer, tokenUsageOf, totalInputTokens } from './provider-answer';
import { FILES_API_BETA } from './files/provider-files';
import { answerModeOf, messageParams, promptCharactersOf, referencesProviderFile, toolCallParams } from './message-params';
import { InputTokenEstimator } from './token-estimate';

/** The gateway as the worker wires it: the door, plus events for metrics and poll pacing. */
export interface AnthropicGateway extends ModelGateway {
  readonly events: GatewayEvents;
}

export function createAnthropicClient(config: Config['anthropic']): Anthropic {
  return new Anthropic({
    apiKey: config.apiKey.reveal(),
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    // 0 by default: Temporal is the only retry layer, two layers multiply attempts and hide them from metrics.
    maxRetries: config.maxRetries,
    timeout: config.requestTimeoutMs,
  });
}

export interface ModelGatewayDeps {
  client: Anthropic;
  prices: Record<string, ModelPrice>;
  log: Logger;
  /** Models that take `output_config.format` (MODEL_CONSTRAINED_OUTPUT); every other model gets a forced tool. */
  constrainedModels?: readonly string[];
  /** The shared token budget; without it calls go straight out (the benchmark's naive mode). */
  budget?: { budget: TokenBudget; settings: BudgetSettings };
  events?: GatewayEvents;
  now?: () => number;
  random?: () => number;
}

export function createModelGateway(deps: ModelGatewayDeps): AnthropicGateway {
  const { client, prices, log } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const events = deps.events ?? new GatewayEvents((error) => log.error({ err: error }, 'gateway listener failed'));
  const estimator = new InputTokenEstimator();

  /**
   * One Messages request: reserve its estimate, send it, settle the budget to what was billed, turn a refusal into
   * ContentRefusedError. Tool calls and citation calls both go through here, so both count against the same budget.
   */
  async function send(
    request: ReservingCall & { maxTokens: number; documentMedia?: DocumentMedia; signal?: AbortSignal },
    params: Anthropic.MessageCreateParamsNonStreaming,
    characters: number,
  ): Promise<{ message: Anthropic.Message; requestId?: string; usage: CallUsage }> {
    const pool = deps.budget ? poolFor(request.model, deps.budget.settings) : request.model;
    const reserved: CallCost = {
      // All of it: whether the cached prefix is still there is known only from the answer; settling gives it back.
      input: estimator.estimate(request.model, characters) + (request.documentMedia ? mediaTokenEstimate(request.documentMedia) : 0),
      // The provider itself counts max_tokens against output tokens per minute until the answer exists.
      output: request.maxTokens,
      requests: 1,
    };
    const reservation = await reserveCall({ budget: deps.budget?.budget, events, random }, request, pool, reserved);
    const answer = { budget: deps.budget?.budget, reservation, pool, request, reserved, events, log, now, prices };
    const startedAt = now();

    let message: Anthropic.Message;
    let requestId: string | undefined;
    try {
      const { data, request_id, response } = await client.messages
        .create(params, requestOptionsOf(request))
        .withResponse();
      message = data;
      requestId = request_id ?? undefined;
      // A scan's tokens are its pixels': they would teach the text ratio nothing true.
      if (!request.documentMedia) estimator.learn(request.model, characters, totalInputTokens(data.usage));
      await settleProviderAnswer(answer, {
        startedAt,
        status: response.status,
        headers: response.headers,
        usage: data.usage,
      });
    } catch (error) {
      const status = error instanceof Anthropic.APIError ? (error.status ?? 0) : 0;
      const headers = error instanceof Anthropic.APIError ? error.headers : undefined;
      await settleProviderAnswer(answer, { startedAt, status, headers, error });
      const mapped = fileMissingError(request, status, error) ?? toProviderError(error);
      log.warn({ jobId: request.jobId, model: request.model, err: mapped ?? error }, 'model call failed');
      throw mapped ?? error;
    }
    const tokens = tokenUsageOf(message.usage);
    const usage = { ...tokens, costUsd: costOf(tokens, prices[request.model]) };
    if (!prices[request.model]) log.warn({ model: request.model }, 'no price for model; cost counted as 0');
    if (message.stop_reason === 'refusal') {
      throw new ContentRefusedError('the model declined to process this document', {
        // Billed all the same: the job counts it (workflows/invoice/invoice-workflow.ts, failureDetailsOf).
        details: { requestId, billedUsage: { ...usage, calls: 1 } },
      });
    }
    return { message, usage, ...(requestId ? { requestId } : {}) };
  }

  return {
    events,
    async callTool(request) {
      const mode = answerModeOf(request.model, deps.constrainedModels);
      const characters = promptCharactersOf(messageParams(request, mode));
      const { message, requestId, usage } = await send(request, toolCallParams(request, mode), characters);
      if (mode === 'constrained') {
        return {
          toolInput: constrainedAnswerOf(message),
          mode,
          stopReason: message.stop_reason,
          model: message.model,
          ...(requestId ? { requestId } : {}),
          usage,
        };
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
    async citeDocument(request) {
      const { message, requestId, usage } = await send(request, citationParams(request), citationPromptCharacters(request));
      return { blocks: citedBlocksOf(message, citableLinesOf(request.documentText)), stopReason: message.stop_reason, model: message.model, ...(requestId ? { requestId } : {}), usage };
    },
  };
}

/** What a request names beyond its parameters: its abort signal and the scan it sends, if any. */
type SentRequest = { signal?: AbortSignal; documentMedia?: DocumentMedia };

/** The call's abort signal, and the Files API beta when the request names an uploaded scan. */
function requestOptionsOf(request: SentRequest): { signal?: AbortSignal; headers?: Record<string, string> } | undefined {
  const files = referencesProviderFile(request);
  if (!request.signal && !files) return undefined;
  return { ...(request.signal ? { signal: request.signal } : {}), ...(files ? { headers: { 'anthropic-beta': FILES_API_BETA } } : {}) };
}

/** A 404 on a call that names an uploaded scan: the file is gone, and uploading it again is the cure. */
function fileMissingError(request: SentRequest, status: number, error: unknown): ProviderFileMissingError | undefined {
  if (status !== 404 || !referencesProviderFile(request)) return undefined;
  return new ProviderFileMissingError(`the provider no longer holds the uploaded scan: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
}
