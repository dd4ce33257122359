import { apiError, type ApiErrorBody } from '../api-errors';
import { buildAssistantMessage, type AssistantMessage } from '../assistant-message';
import { errorForFault } from '../fault-errors';
import { pickFault } from '../fault-picker';
import { modelAnswer, type CallFacts } from '../messages-handler';
import { parseMessagesRequest } from '../messages-request';
import { KNOWN_TOOLS } from '../model';
import { documentTextOf, requestedToolName } from '../request-text';
import type { SimulatorState } from '../state';
import { countInputTokens } from '../token-count';

export type BatchEntryResult =
  | { type: 'succeeded'; message: AssistantMessage }
  | { type: 'errored'; error: ApiErrorBody }
  | { type: 'canceled' }
  | { type: 'expired' };

/** Only fault rules (a test targeting one entry by a marker) apply to entries; the live random rates do not. */
const NO_RANDOM_FAULTS = { rate429: 0, rate529: 0, rate500: 0, rateRefusal: 0, rateMalformed: 0 };

/**
 * One entry of an ending batch, answered as `POST /v1/messages` would answer it but outside the live rate limits
 * (batches have their own): expired or errored at the configured rates, else the rule-based reader's message.
 * A succeeded entry is recorded in the call log with `lane: 'batch'`; errored and expired ones are not billed.
 */
export function answerBatchEntry(state: SimulatorState, params: unknown, batchId: string): BatchEntryResult {
  const draw = state.faultRandom.next();
  if (draw < state.settings.batchExpiredRate) return { type: 'expired' };
  if (draw < state.settings.batchExpiredRate + state.settings.batchErrorRate) {
    return { type: 'errored', error: apiError('api_error', 'Internal server error (simulated batch entry)').body };
  }
  const parsed = parseMessagesRequest(params);
  if (!parsed.ok) return { type: 'errored', error: apiError('invalid_request_error', parsed.message).body };
  const request = parsed.value;
  const facts: CallFacts = {
    request,
    tool: requestedToolName(request, KNOWN_TOOLS),
    documentText: documentTextOf(request),
    inputTokens: countInputTokens(request),
    fault: null,
  };
  facts.fault = pickFault({
    header: null,
    rules: state.rules,
    facts: { tool: facts.tool, model: request.model, documentText: facts.documentText },
    rates: NO_RANDOM_FAULTS,
    random: state.faultRandom,
  });
  const injected = facts.fault ? errorForFault(facts.fault.fault) : null;
  if (injected) return { type: 'errored', error: injected.body };
  const cache = state.promptCache.lookup(request);
  state.promptCache.commit(cache);
  const message = buildAssistantMessage({
    id: state.newId('msg'),
    toolUseId: state.newId('toolu'),
    model: request.model,
    answer: modelAnswer(facts, request, state.settings.repairRate),
    input: cache,
    maxTokens: request.max_tokens,
  });
  state.stats.recordCall(
    {
      at: new Date(state.clock.now()).toISOString(),
      tool: facts.tool,
      model: request.model,
      status: 200,
      stopReason: message.stop_reason,
      fault: facts.fault?.fault.kind ?? null,
      inputTokens: cache.inputTokens,
      cacheCreationInputTokens: cache.cacheCreationInputTokens,
      cacheReadInputTokens: cache.cacheReadInputTokens,
      outputTokens: message.usage.output_tokens,
      requestId: batchId,
      lane: 'batch',
    },
    facts.documentText,
  );
  return { type: 'succeeded', message };
}
