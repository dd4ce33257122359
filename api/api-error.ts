/** An error the API answers with: a status, a stable code clients can branch on, and a message saying what to fix. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const apiErrors = {
  /** One tenant holds its whole share of a bounded resource; the error handler sends `retryAfterSeconds` as Retry-After. */
  tooManyRequests: (what: string, limit: number, retryAfterSeconds: number) =>
    new ApiError(429, 'too_many_requests', `this tenant already has ${limit} ${what} open; retry after ${retryAfterSeconds}s`, {
      limit,
      retryAfterSeconds,
    }),
  unauthorized: () =>
    new ApiError(401, 'unauthorized', 'send your API key as "Authorization: Bearer <key>"'),
  notFound: (what: string) => new ApiError(404, 'not_found', `${what} was not found`),
  /**
   * A body naming a reviewer or operator other than the one the credential proves: it asks to act as someone else,
   * which no credential may, so it is refused as forbidden rather than believed (the schema cannot know who signed in).
   */
  notYou: (field: 'reviewer' | 'operator', you: string) =>
    new ApiError(403, 'not_you', `"${field}" must be left out or be you (${you}): the signed-in ${field} is recorded`, { field }),
  /** A page token of the right shape that this list did not give out (forged, or another tenant's or filter's). */
  unknownPage: () =>
    new ApiError(404, 'not_found', 'pageToken names no page of this list (it did not give it out); start again without it', { field: 'pageToken' }),
  invalidRequest: (message: string, details?: Record<string, unknown>) =>
    new ApiError(400, 'invalid_request', message, details),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, 'payload_too_large', `the file is larger than the ${limitBytes}-byte limit; split or compress it`, {
      limitBytes,
    }),
  tooManyPages: (pages: number, limitPages: number) =>
    new ApiError(413, 'too_many_pages', `the document has ${pages} pages; the limit is ${limitPages}: split it`, { pages, limitPages }),
  tooLong: (durationSeconds: number, limitSeconds: number) =>
    new ApiError(413, 'too_long', `the recording is ${Math.ceil(durationSeconds)} s long; the limit is ${limitSeconds} s: split it`, {
      durationSeconds: Math.ceil(durationSeconds),
      limitSeconds,
    }),
  unsupportedMediaType: () =>
    new ApiError(
      415,
      'unsupported_media_type',
      'the file is neither a PDF, a PNG or JPEG image, UTF-8 text, nor a WAV, MP3, M4A/AAC, OGG or FLAC recording (judged by its bytes, not its name); upload a PDF, an image, a .txt or a recording',
    ),
  idempotencyKeyReused: (jobId: string) =>
    new ApiError(
      409,
      'idempotency_key_reused',
      'this Idempotency-Key was already used with a different file; use a new key for a new document',
      { jobId },
    ),
  notAwaitingReview: (status: string) =>
    new ApiError(409, 'not_awaiting_review', `the job is ${status}, not awaiting review; it was already decided or moved on`, {
      status,
    }),
  jobFinished: (status: string) =>
    new ApiError(409, 'job_finished', `the job is already ${status}; a finished job cannot be cancelled`, { status }),
  invalidFields: (errors: string[]) =>
    new ApiError(422, 'invalid_fields', 'the fields do not match the result this job type’s reviewer edits; fix the listed fields', { errors }),
  temporalUnavailable: () =>
    new ApiError(503, 'temporal_unavailable', 'the job service is unreachable; retry with the same Idempotency-Key'),
  /** A job whose state only its worker can tell (a JSON input, a call's transcript key) while none answers for it. */
  noWorkerAnswer: (what: string) =>
    new ApiError(503, 'temporal_unavailable', `${what} cannot be read until a worker answers for the job; retry shortly`, { retryAfterSeconds: 2 }),
  reviewNotTaken: (waitedMs: number) =>
    new ApiError(
      503,
      'temporal_unavailable',
      `no worker took the decision within ${waitedMs / 1000} s (workers restarting?); send it again, with the same Idempotency-Key it cannot count twice`,
    ),
};
