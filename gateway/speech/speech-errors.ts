import {
  DocumentTooLargeError,
  ModelAuthError,
  ModelRateLimitedError,
  ModelRequestInvalidError,
  ModelUnavailableError,
  type SlowlaneError,
  SpendLimitReachedError,
} from '../../common/errors';
import { retryAfterMs } from '../provider-errors';

/** What the speech provider answered with an error status (OpenAI's `{ error: { message, code } }`, AssemblyAI's `{ error }`). */
export class SpeechHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly providerMessage: string,
    readonly code: string | undefined,
  ) {
    super(`speech provider answered ${status}: ${providerMessage}`);
  }

  /** A 429 that says the account's quota is spent, not that the rate is too high: waiting does not help. */
  get quotaSpent(): boolean {
    return this.status === 429 && this.code === 'insufficient_quota';
  }
}

/** Maps an HTTP answer or a failed fetch onto our typed errors, which say whether and when to retry. */
export function toSpeechError(error: unknown, cancelled: boolean): SlowlaneError {
  if (!(error instanceof SpeechHttpError)) {
    const reason = error instanceof Error ? error.message : String(error);
    // A timeout, our own cancellation or a refused connection: another attempt may well succeed.
    return new ModelUnavailableError(
      cancelled ? `the transcription was cancelled before the provider answered: ${reason}` : `speech provider unreachable: ${reason}`,
      { cause: error },
    );
  }
  const details = { status: error.status, provider: 'speech', ...(error.code ? { code: error.code } : {}) };
  const wait = retryAfterMs(error.headers);
  const retryAfter = wait !== undefined ? { retryAfterMs: wait } : {};
  // The chunk is larger than the provider takes: the same bytes are refused again, the caller must cut smaller.
  if (error.status === 413) return new DocumentTooLargeError(error.message, { details, cause: error });
  if (error.quotaSpent) return new SpendLimitReachedError(error.message, { details, cause: error });
  if (error.status === 429) return new ModelRateLimitedError(error.message, { details, cause: error, ...retryAfter });
  if (error.status === 401 || error.status === 403) return new ModelAuthError(error.message, { details, cause: error });
  if (error.status === 408 || error.status === 409 || error.status >= 500) {
    return new ModelUnavailableError(error.message, { details, cause: error, ...retryAfter });
  }
  return new ModelRequestInvalidError(error.message, { details, cause: error });
}

/** The message and code of an error answer in either provider's shape. */
export function errorOfBody(text: string): { message: string; code: string | undefined } {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } | string };
    if (typeof parsed.error === 'string') return { message: parsed.error, code: undefined };
    if (typeof parsed.error?.message === 'string') {
      return { message: parsed.error.message, code: typeof parsed.error.code === 'string' ? parsed.error.code : undefined };
    }
  } catch {
    // Not JSON (a proxy's error page): the start of the text says enough.
  }
  return { message: text.slice(0, 300), code: undefined };
}
