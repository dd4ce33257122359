import type { IncomingHttpHeaders } from 'node:http';
import { checkApiKey } from './api-key';
import { apiError, type ApiError } from './api-errors';
import { buildAssistantMessage } from './assistant-message';
import { errorForFault } from './fault-errors';
import { pickFault, type ChosenFault } from './fault-picker';
import { parseFaultHeader, type Fault } from './faults';
import { errorReply, jsonReply, type HttpReply } from './http-reply';
import { malform } from './malformed-output';
import { citableDocumentOf, questionOf } from './citable-document';
import { citationProblemOf, citedAnswer, wantsCitations, type CitableDocument } from './citations';
import { parseMessagesRequest, type MessagesRequest } from './messages-request';
import { hasMediaDocument, mediaProblemOf } from './media-blocks';
import { answerFor, answerForScan, KNOWN_TOOLS } from './model';
import type { ModelAnswer } from './model-answer';
import type { CacheUsage } from './prompt-cache';
import type { Admission } from './rate-limiter';
import { isRepairRequest, repairSucceeds } from './repair-answer';
import { documentTextOf, requestedToolName } from './request-text';
import type { SimulatorState } from './state';
import type { CallRecord } from './stats';
import { countInputTokens } from './token-count';

/** Extra wait of a `slow` fault that names no delay: long enough to notice, short enough for a test. */
const DEFAULT_SLOW_DELAY_MS = 3000;

export interface MessagesCall {
  state: SimulatorState;
  requestId: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  sleep: (ms: number) => Promise<void>;
  clientGone: () => boolean;
}

export interface CallFacts {
  request: MessagesRequest | null;
  tool: string | null;
  documentText: string;
  inputTokens: number;
  fault: ChosenFault | null;
  /** The cited document's text, when the request enables citations. */
  citable?: CitableDocument;
}

function record(
  call: MessagesCall,
  facts: CallFacts,
  status: number,
  output: { tokens: number; stopReason: string | null },
  input: CacheUsage = { inputTokens: facts.inputTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
): void {
  const entry: CallRecord = {
    at: new Date(call.state.clock.now()).toISOString(),
    tool: facts.tool,
    model: facts.request?.model ?? null,
    status,
    stopReason: output.stopReason,
    fault: facts.fault?.fault.kind ?? null,
    inputTokens: input.inputTokens,
    cacheCreationInputTokens: input.cacheCreationInputTokens,
    cacheReadInputTokens: input.cacheReadInputTokens,
    outputTokens: output.tokens,
    requestId: call.requestId,
    ...(facts.request?.output_config?.format ? { constrained: true as const } : {}),
    ...(call.clientGone() ? { undelivered: true as const } : {}),
  };
  call.state.stats.recordCall(entry, facts.documentText);
}

function failed(call: MessagesCall, facts: CallFacts, error: ApiError): HttpReply {
  record(call, facts, error.status, { tokens: 0, stopReason: null });
  return errorReply(error);
}

function headerFault(headers: IncomingHttpHeaders): { fault: Fault | null; error: ApiError | null } {
  const raw = headers['x-sim-fault'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return { fault: null, error: null };
  const parsed = parseFaultHeader(value);
  return parsed.ok
    ? { fault: parsed.value, error: null }
    : { fault: null, error: apiError('invalid_request_error', parsed.message) };
}

function rateLimitError(admission: Extract<Admission, { admitted: false }>, state: SimulatorState): ApiError {
  const limits = {
    requests: `${state.settings.requestsPerMinute} requests per minute`,
    input_tokens: `${state.settings.inputTokensPerMinute} input tokens per minute`,
    output_tokens: `${state.settings.outputTokensPerMinute} output tokens per minute`,
  };
  const message = admission.exceedsLimit
    ? `This request alone exceeds the rate limit of ${limits[admission.limit]}; reduce the prompt length.`
    : `This request would exceed the rate limit of ${limits[admission.limit]}. Retry after ${admission.retryAfterSeconds} s.`;
  return apiError('rate_limit_error', message, { retryAfterSeconds: admission.retryAfterSeconds });
}

export function modelAnswer(facts: CallFacts, request: MessagesRequest, repairRate: number): ModelAnswer {
  const kind = facts.fault?.fault.kind;
  if (kind === 'refusal') return { kind: 'refusal', text: "I can't help with this request." };
  // A cited answer is prose: a malformed fault has no schema to break in it.
  if (facts.citable) return { kind: 'cited', blocks: citedAnswer(facts.citable, questionOf(request)) };
  const answer = hasMediaDocument(request) ? answerForScan(facts.tool) : answerFor(facts.tool, facts.documentText);
  // Constrained decoding cannot write what the schema forbids, so a malformed fault has nothing to break here: the
  // answer is the reader's, as JSON text (a real model may still be wrong in value, never in shape).
  if (request.output_config?.format) return answer.kind === 'tool_use' ? { kind: 'text', text: JSON.stringify(answer.input) } : answer;
  // Told what was wrong, the model gets it right at the configured rate, whatever the random draw said; a
  // malformed answer a header or rule asked for stays malformed (the test wants exactly that).
  const forced = facts.fault !== null && facts.fault.source !== 'random';
  if (isRepairRequest(request) && !forced) return repairSucceeds(request, repairRate) ? answer : malform(answer);
  return kind === 'malformed' ? malform(answer) : answer;
}

/**
 * `POST /v1/messages`: authenticate, validate, pick a fault, pass the rate limiter, let the rule-based
 * reader answer, wait the simulated generation time, charge output tokens, reply.
 * Injected errors answer before the buckets are touched: they stand for a service that turns the
 * call away up front, which is why they are neither admitted nor billed.
 */
export async function handleMessages(call: MessagesCall): Promise<HttpReply> {
  const { state } = call;
  const facts: CallFacts = { request: null, tool: null, documentText: '', inputTokens: 0, fault: null };
  const authError = checkApiKey(call.headers);
  if (authError) return failed(call, facts, authError);
  const parsed = parseMessagesRequest(call.body);
  if (!parsed.ok) return failed(call, facts, apiError('invalid_request_error', parsed.message));
  const request = parsed.value;
  const mediaProblem = mediaProblemOf(request);
  if (mediaProblem) return failed(call, facts, apiError('invalid_request_error', mediaProblem));
  const citationProblem = citationProblemOf(request);
  if (citationProblem) return failed(call, facts, apiError('invalid_request_error', citationProblem));
  facts.request = request;
  if (wantsCitations(request)) facts.citable = await citableDocumentOf(request);
  facts.tool = requestedToolName(request, KNOWN_TOOLS);
  facts.documentText = documentTextOf(request);
  facts.inputTokens = countInputTokens(request);
  const fromHeader = headerFault(call.headers);
  if (fromHeader.error) return failed(call, facts, fromHeader.error);

  facts.fault = pickFault({
    header: fromHeader.fault,
    rules: state.rules,
    facts: { tool: facts.tool, model: request.model, documentText: facts.documentText },
    rates: state.settings,
    random: state.faultRandom,
  });
  const extraDelayMs = facts.fault?.fault.delayMs ?? (facts.fault?.fault.kind === 'slow' ? DEFAULT_SLOW_DELAY_MS : 0);
  const injectedError = facts.fault ? errorForFault(facts.fault.fault) : null;
  if (injectedError) {
    await call.sleep(state.settings.latencyBaseMs + extraDelayMs);
    return failed(call, facts, injectedError);
  }

  // Cache reads do not count toward input tokens per minute; fresh input and cache writes do (docs/gateway.md).
  const cache = state.promptCache.lookup(request);
  const admission = state.limiter.admit(cache.inputTokens + cache.cacheCreationInputTokens);
  if (!admission.admitted) return failed(call, facts, rateLimitError(admission, state));
  state.promptCache.commit(cache);

  const answer = modelAnswer(facts, request, state.settings.repairRate);
  const message = buildAssistantMessage({
    id: state.newId('msg'),
    toolUseId: state.newId('toolu'),
    model: request.model,
    answer,
    input: cache,
    maxTokens: request.max_tokens,
  });
  const outputTokens = message.usage.output_tokens;
  await call.sleep(state.settings.latencyBaseMs + state.settings.latencyPerOutputTokenMs * outputTokens + extraDelayMs);
  state.limiter.chargeOutput(outputTokens);
  record(call, facts, 200, { tokens: outputTokens, stopReason: message.stop_reason }, cache);
  return jsonReply(200, message);
}
