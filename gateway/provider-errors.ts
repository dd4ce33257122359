import Anthropic from '@anthropic-ai/sdk';
import {
  ModelAuthError,
  ModelRateLimitedError,
  ModelRequestInvalidError,
  ModelUnavailableError,
  type SlowlaneError,
  SpendLimitReachedError,
} from '../common/errors';

/** Seconds or an HTTP date in `retry-after`, milliseconds in `retry-after-ms` (as @anthropic-ai/sdk reads them). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

interface ErrorBody {
  error?: { type?: string; message?: string; details?: { error_code?: string } };
}

/** Maps what the Anthropic SDK throws onto our typed errors, which say whether and when to retry. */
export function toProviderError(error: unknown): SlowlaneError | undefined {
  if (!(error instanceof Anthropic.APIError)) return undefined;
  const body = (error.error ?? {}) as ErrorBody;
  const details = { status: error.status, requestId: error.requestID ?? undefined, providerType: body.error?.type };
  const message = `provider answered ${error.status ?? 'no status'}: ${body.error?.message ?? error.message}`;
  if (error instanceof Anthropic.APIUserAbortError) {
    // Our own cancellation (the worker shutting down, an attempt that timed out), not the provider's verdict on the
    // request: another attempt may well succeed, so it must not dead-letter the job as an invalid request.
    return new ModelUnavailableError(`the call was cancelled before the provider answered: ${error.message}`, {
      details,
      cause: error,
    });
  }
  if (error instanceof Anthropic.APIConnectionError) {
    return new ModelUnavailableError(`provider unreachable: ${error.message}`, { details, cause: error });
  }
  const status = error.status ?? 0;
  if (status === 429) {
    if (body.error?.details?.error_code === 'enforced_spend_limit_reached') {
      return new SpendLimitReachedError(message, { details, cause: error });
    }
    const wait = retryAfterMs(error.headers);
    return new ModelRateLimitedError(message, {
      details,
      cause: error,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  if (status === 401 || status === 403) return new ModelAuthError(message, { details, cause: error });
  if (status === 408 || status === 409 || status >= 500) {
    const wait = retryAfterMs(error.headers);
    return new ModelUnavailableError(message, {
      details,
      cause: error,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  return new ModelRequestInvalidError(message, { details, cause: error });
}
