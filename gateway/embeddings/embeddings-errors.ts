import {
  ModelAuthError,
  ModelRateLimitedError,
  ModelRequestInvalidError,
  ModelUnavailableError,
  type SlowlaneError,
} from '../../common/errors';
import { retryAfterMs } from '../provider-errors';

/** What the embeddings provider answered with an error status: Voyage AI puts its message in `detail`. */
export class EmbeddingsHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly detail: string,
  ) {
    super(`embeddings provider answered ${status}: ${detail}`);
  }
}

/** Maps an HTTP answer or a failed fetch onto our typed errors, which say whether and when to retry. */
export function toEmbeddingsError(error: unknown, cancelled: boolean): SlowlaneError {
  if (!(error instanceof EmbeddingsHttpError)) {
    const reason = error instanceof Error ? error.message : String(error);
    // A timeout, our own cancellation or a refused connection: another attempt may well succeed.
    return new ModelUnavailableError(
      cancelled ? `the embeddings call was cancelled before the provider answered: ${reason}` : `embeddings provider unreachable: ${reason}`,
      { cause: error },
    );
  }
  const details = { status: error.status, provider: 'embeddings' };
  const wait = retryAfterMs(error.headers);
  const retryAfter = wait !== undefined ? { retryAfterMs: wait } : {};
  if (error.status === 429) return new ModelRateLimitedError(error.message, { details, cause: error, ...retryAfter });
  if (error.status === 401 || error.status === 403) return new ModelAuthError(error.message, { details, cause: error });
  if (error.status === 408 || error.status === 409 || error.status >= 500) {
    return new ModelUnavailableError(error.message, { details, cause: error, ...retryAfter });
  }
  return new ModelRequestInvalidError(error.message, { details, cause: error });
}
