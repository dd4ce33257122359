import { checkApiKey } from '../api-key';
import { apiError } from '../api-errors';
import { errorReply, jsonReply, type HttpReply } from '../http-reply';
import { isRecord } from '../messages-request';
import type { RouteContext } from '../router';
import type { BatchRequest } from './message-batch-book';

/** The provider's limits on one batch (100,000 requests) and on a `custom_id`. */
const MAX_REQUESTS = 100_000;
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const BATCH_PATH = /^\/v1\/messages\/batches\/([^/]+)(?:\/(cancel|results))?$/;
const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 1000;

function parseRequests(body: unknown): { ok: true; requests: BatchRequest[] } | { ok: false; message: string } {
  if (!isRecord(body) || !Array.isArray(body.requests)) return { ok: false, message: 'requests: Field required' };
  const requests: BatchRequest[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of body.requests.entries()) {
    if (!isRecord(entry) || typeof entry.custom_id !== 'string' || !CUSTOM_ID.test(entry.custom_id)) {
      return { ok: false, message: `requests.${index}.custom_id: must match ${CUSTOM_ID.source}` };
    }
    if (seen.has(entry.custom_id)) return { ok: false, message: `requests.${index}.custom_id: duplicate ${entry.custom_id}` };
    if (!isRecord(entry.params)) return { ok: false, message: `requests.${index}.params: Field required` };
    seen.add(entry.custom_id);
    requests.push({ custom_id: entry.custom_id, params: entry.params });
  }
  if (requests.length === 0 || requests.length > MAX_REQUESTS) {
    return { ok: false, message: `requests: between 1 and ${MAX_REQUESTS} entries` };
  }
  return { ok: true, requests };
}

function baseUrlOf(context: RouteContext): string {
  return `http://${context.headers.host ?? '127.0.0.1'}`;
}

function listBatches(context: RouteContext): HttpReply {
  const { batches } = context.state;
  const limit = Math.min(Number(context.query.get('limit') ?? DEFAULT_LIST_LIMIT) || DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
  let all = batches.list();
  const afterId = context.query.get('after_id');
  if (afterId) all = all.slice(all.findIndex((batch) => batch.id === afterId) + 1);
  const page = all.slice(0, limit).map((batch) => batches.view(batch, baseUrlOf(context)));
  return jsonReply(200, {
    data: page,
    has_more: all.length > limit,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
  });
}

/**
 * The Message Batches endpoints (create, retrieve, list, cancel, results as JSONL), or null for another path.
 * Entries are answered by the same reader as live calls (batch-entry-answer.ts).
 */
export function routeMessageBatches(method: string, pathname: string, context: RouteContext): HttpReply | null {
  if (!pathname.startsWith('/v1/messages/batches')) return null;
  const authError = checkApiKey(context.headers);
  if (authError) return errorReply(authError);
  const { batches } = context.state;
  if (pathname === '/v1/messages/batches') {
    if (method === 'GET') return listBatches(context);
    if (method !== 'POST') return null;
    const parsed = parseRequests(context.body);
    if (!parsed.ok) return errorReply(apiError('invalid_request_error', parsed.message));
    return jsonReply(200, batches.view(batches.create(parsed.requests), baseUrlOf(context)));
  }
  const match = BATCH_PATH.exec(pathname);
  if (!match) return null;
  const batch = batches.find(decodeURIComponent(match[1] ?? ''));
  if (!batch) return errorReply(apiError('not_found_error', `message batch ${match[1]} not found`));
  const action = match[2];
  if (action === undefined && method === 'GET') return jsonReply(200, batches.view(batch, baseUrlOf(context)));
  if (action === 'cancel' && method === 'POST') {
    batches.cancel(batch);
    return jsonReply(200, batches.view(batch, baseUrlOf(context)));
  }
  if (action === 'results' && method === 'GET') {
    if (batches.view(batch, baseUrlOf(context)).processing_status !== 'ended') {
      return errorReply(apiError('invalid_request_error', `message batch ${batch.id} has not ended yet`));
    }
    batches.markRead(batch);
    return { status: 200, headers: {}, body: null, raw: { contentType: 'application/binary', text: batches.resultsJsonl(batch) } };
  }
  return null;
}
