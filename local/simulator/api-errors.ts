/** The provider's error types and the status each comes with (platform.claude.com/docs/en/api/errors). */
export const ERROR_STATUS = {
  invalid_request_error: 400,
  authentication_error: 401,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
} as const;

export type ApiErrorType = keyof typeof ERROR_STATUS;

export interface ApiErrorBody {
  type: 'error';
  error: { type: ApiErrorType; message: string; details?: { error_code: string } };
}

export interface ApiError {
  status: number;
  body: ApiErrorBody;
  headers: Record<string, string>;
}

export function apiError(
  type: ApiErrorType,
  message: string,
  extra: { retryAfterSeconds?: number; errorCode?: string } = {},
): ApiError {
  const headers: Record<string, string> = {};
  if (extra.retryAfterSeconds !== undefined) headers['retry-after'] = String(extra.retryAfterSeconds);
  const error: ApiErrorBody['error'] = { type, message };
  if (extra.errorCode !== undefined) error.details = { error_code: extra.errorCode };
  return { status: ERROR_STATUS[type], body: { type: 'error', error }, headers };
}
