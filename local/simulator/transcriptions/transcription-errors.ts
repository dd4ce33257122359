import type { Fault } from '../faults';
import { jsonReply, type HttpReply } from '../http-reply';

/** OpenAI's error envelope: `{ error: { message, type, param, code } }`. */
export function openAiError(
  status: number,
  message: string,
  extra: { type?: string; code?: string | null; retryAfterSeconds?: number } = {},
): HttpReply {
  const headers: Record<string, string> = extra.retryAfterSeconds !== undefined ? { 'retry-after': String(extra.retryAfterSeconds) } : {};
  return jsonReply(
    status,
    { error: { message, type: extra.type ?? 'invalid_request_error', param: null, code: extra.code ?? null } },
    headers,
  );
}

/** The simulator's fault switch in OpenAI's words; faults that shape a Messages answer (refusal, malformed) do nothing here. */
export function transcriptionFaultReply(fault: Fault): HttpReply | null {
  switch (fault.kind) {
    case 'rate_limit':
      return openAiError(429, 'Rate limit reached for requests (simulated).', {
        type: 'requests',
        code: 'rate_limit_exceeded',
        retryAfterSeconds: fault.retryAfterSeconds ?? 1,
      });
    case 'spend_limit':
      return openAiError(429, 'You exceeded your current quota, please check your plan and billing details (simulated).', {
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      });
    case 'overloaded':
      return openAiError(503, 'The engine is currently overloaded, please try again later (simulated).', {
        type: 'server_error',
        ...(fault.retryAfterSeconds !== undefined ? { retryAfterSeconds: fault.retryAfterSeconds } : {}),
      });
    case 'server_error':
      return openAiError(500, 'The server had an error while processing your request. Sorry about that! (simulated)', { type: 'server_error' });
    case 'invalid_request':
      return openAiError(400, 'The request was rejected as invalid (simulated).');
    case 'refusal':
    case 'malformed':
    case 'slow':
      return null;
  }
}
