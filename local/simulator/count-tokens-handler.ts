import type { IncomingHttpHeaders } from 'node:http';
import { checkApiKey } from './api-key';
import { apiError } from './api-errors';
import { errorReply, jsonReply, type HttpReply } from './http-reply';
import { mediaProblemOf } from './media-blocks';
import { parseCountTokensRequest } from './messages-request';
import type { SimulatorState } from './state';
import { countInputTokens } from './token-count';

/**
 * `POST /v1/messages/count_tokens`: the same count the Messages call reports as usage.input_tokens.
 * It does not draw on the rate-limit buckets; the provider limits token counting separately.
 */
export function handleCountTokens(state: SimulatorState, headers: IncomingHttpHeaders, body: unknown): HttpReply {
  state.stats.recordCountTokens();
  const authError = checkApiKey(headers);
  if (authError) return errorReply(authError);
  const parsed = parseCountTokensRequest(body);
  if (!parsed.ok) return errorReply(apiError('invalid_request_error', parsed.message));
  const mediaProblem = mediaProblemOf(parsed.value);
  if (mediaProblem) return errorReply(apiError('invalid_request_error', mediaProblem));
  return jsonReply(200, { input_tokens: countInputTokens(parsed.value) });
}
