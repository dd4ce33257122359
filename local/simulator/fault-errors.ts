import { apiError, type ApiError } from './api-errors';
import type { Fault } from './faults';

/** An injected rate limit that names no wait still tells the client to back off briefly, like a real 429. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * The error response an injected fault stands for, or null for faults that answer 200
 * (refusal, malformed, slow). Messages mirror the provider's, so logs read like production.
 */
export function errorForFault(fault: Fault): ApiError | null {
  switch (fault.kind) {
    case 'rate_limit':
      return apiError(
        'rate_limit_error',
        'Number of request tokens has exceeded your per-minute rate limit (simulated)',
        {
          retryAfterSeconds: fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
        },
      );
    case 'spend_limit':
      // Not retryable: the monthly cap holds until someone raises it (platform.claude.com/docs/en/api/errors).
      return apiError('rate_limit_error', 'You have reached your specified workspace API usage limits (simulated)', {
        errorCode: 'enforced_spend_limit_reached',
        ...(fault.retryAfterSeconds !== undefined ? { retryAfterSeconds: fault.retryAfterSeconds } : {}),
      });
    case 'overloaded':
      return apiError(
        'overloaded_error',
        'Overloaded (simulated)',
        fault.retryAfterSeconds !== undefined ? { retryAfterSeconds: fault.retryAfterSeconds } : {},
      );
    case 'server_error':
      return apiError('api_error', 'Internal server error (simulated)');
    case 'invalid_request':
      return apiError('invalid_request_error', 'The request was rejected as invalid (simulated)');
    case 'refusal':
    case 'malformed':
    case 'slow':
      return null;
  }
}
