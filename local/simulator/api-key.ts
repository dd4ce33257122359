import type { IncomingHttpHeaders } from 'node:http';
import { apiError, type ApiError } from './api-errors';

function single(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/**
 * Any non-empty key is accepted: the simulator checks that clients send one, not which.
 * Both the `x-api-key` header and `Authorization: Bearer <key>` count, because @anthropic-ai/sdk
 * 1.16.0 sends its `apiKey` as a Bearer token (client.js `apiKeyAuth`), while curl examples and
 * older SDKs use `x-api-key`.
 */
export function checkApiKey(headers: IncomingHttpHeaders): ApiError | null {
  if (single(headers['x-api-key']) !== '') return null;
  if (/^Bearer\s+\S+/i.test(single(headers.authorization))) return null;
  return apiError('authentication_error', 'x-api-key header is required');
}
