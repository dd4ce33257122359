import { checkApiKey } from '../api-key';
import { apiError } from '../api-errors';
import { errorReply, jsonReply, type HttpReply } from '../http-reply';
import type { RouteContext } from '../router';
import { filesBetaProblem } from './files-beta';

/** The Files API's limit on one file (500 MB). */
export const MAX_FILE_BYTES = 500 * 1024 * 1024;
const FILE_PATH = /^\/v1\/files\/([^/]+)$/;
const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 1000;

/** A multipart upload's raw body, as the server reads it for `POST /v1/files` (never as JSON). */
export interface FileUpload {
  bytes: Buffer;
  contentType: string;
}

/**
 * `/v1/files` as the Files API answers it: upload (multipart, field `file`), list (newest first, `limit`,
 * `after_id`), metadata and delete by id; 404 for an id it does not hold (never uploaded, or deleted). Every call
 * needs the beta header. Null for a path that is not the Files API's.
 */
export function routeFiles(method: string, pathname: string, context: RouteContext): HttpReply | Promise<HttpReply> | null {
  const byId = FILE_PATH.exec(pathname);
  if (pathname !== '/v1/files' && !byId) return null;
  const refused = checkApiKey(context.headers) ?? filesBetaProblem(context.headers);
  if (refused) return errorReply(refused);
  if (pathname === '/v1/files') {
    if (method === 'POST') return upload(context);
    if (method === 'GET') return list(context);
    return null;
  }
  const id = decodeURIComponent(byId?.[1] ?? '');
  const file = context.state.files.get(id);
  if (!file) return errorReply(apiError('not_found_error', `File not found: ${id}`));
  if (method === 'GET') return jsonReply(200, file.metadata);
  if (method === 'DELETE') {
    context.state.files.delete(id);
    return jsonReply(200, { id, type: 'file_deleted' });
  }
  return null;
}

async function upload(context: RouteContext): Promise<HttpReply> {
  const body = context.body as FileUpload;
  let form: FormData;
  try {
    form = await new Response(body.bytes, { headers: { 'content-type': body.contentType } }).formData();
  } catch {
    return errorReply(apiError('invalid_request_error', 'the body must be multipart/form-data with a `file` field'));
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) return errorReply(apiError('invalid_request_error', 'file: Field required'));
  const bytes = Buffer.from(await file.arrayBuffer());
  if (bytes.length > MAX_FILE_BYTES) return errorReply(apiError('request_too_large', `the file exceeds ${MAX_FILE_BYTES} bytes`));
  const metadata = {
    id: context.state.newId('file'),
    type: 'file' as const,
    filename: file instanceof File ? file.name : 'upload',
    mime_type: file.type || 'application/octet-stream',
    size_bytes: bytes.length,
    created_at: new Date(context.state.clock.now()).toISOString(),
    downloadable: false,
  };
  context.state.files.add(metadata, bytes);
  return jsonReply(200, metadata);
}

function list(context: RouteContext): HttpReply {
  const limit = Math.min(Number(context.query.get('limit') ?? DEFAULT_LIST_LIMIT) || DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
  const all = context.state.files.list();
  const afterId = context.query.get('after_id');
  const start = afterId ? all.findIndex((file) => file.id === afterId) + 1 : 0;
  const data = all.slice(start, start + limit);
  return jsonReply(200, { data, has_more: start + limit < all.length, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
}
