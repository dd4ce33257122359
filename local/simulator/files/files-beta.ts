import type { IncomingHttpHeaders } from 'node:http';
import { apiError, type ApiError } from '../api-errors';

/** The beta the Files API and every request naming a file must declare (docs.anthropic.com, Files API). */
export const FILES_API_BETA = 'files-api-2025-04-14';

/** The 400 the provider gives a request that uses the Files API without declaring its beta, or null. */
export function filesBetaProblem(headers: IncomingHttpHeaders): ApiError | null {
  const raw = headers['anthropic-beta'];
  const betas = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((beta) => beta.trim());
  return betas.includes(FILES_API_BETA)
    ? null
    : apiError('invalid_request_error', `the Files API is in beta: send the header anthropic-beta: ${FILES_API_BETA}`);
}
