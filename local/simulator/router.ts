import type { IncomingHttpHeaders } from 'node:http';
import * as admin from './admin-handlers';
import { apiError } from './api-errors';
import { handleCountTokens } from './count-tokens-handler';
import { handleEmbeddings } from './embeddings/embeddings-handler';
import { errorReply, jsonReply, type HttpReply } from './http-reply';
import { routeMessageBatches } from './batches/batch-routes';
import { routeFiles } from './files/files-handler';
import { resolveBatchFileSources, resolveFileSources } from './files/resolve-file-sources';
import { handleMessages } from './messages-handler';
import { isRecord } from './messages-request';
import type { SimulatorState } from './state';
import { handleDeleteTranscript, handleGetTranscript, handleSubmit, handleUpload } from './transcriptions/assemblyai/assemblyai-handlers';
import { type AudioUpload, handleTranscription } from './transcriptions/transcriptions-handler';

export interface RouteContext {
  state: SimulatorState;
  requestId: string;
  headers: IncomingHttpHeaders;
  query: URLSearchParams;
  body: unknown;
  sleep: (ms: number) => Promise<void>;
  /**
   * Whether the client went away before its answer (a killed worker, an aborted call). A provider bills the work it
   * did all the same; the simulator logs such calls apart, since their client never learned what they cost.
   */
  clientGone: () => boolean;
}

type Route = (context: RouteContext, id: string) => HttpReply | Promise<HttpReply>;

const ROUTES: Record<string, Route> = {
  'POST /v1/messages': (context) => withFilesResolved(context, () => handleMessages({ ...context })),
  'POST /v1/messages/count_tokens': (context) =>
    withFilesResolved(context, () => handleCountTokens(context.state, context.headers, context.body)),
  'POST /v1/embeddings': ({ state, headers, body, sleep, clientGone }) => handleEmbeddings({ state, headers, body, sleep, clientGone }),
  'GET /_sim/embeddings/stats': ({ state }) => jsonReply(200, state.embeddingStats),
  // The server reads this path's body as bytes (multipart audio), never as JSON.
  'POST /v1/audio/transcriptions': ({ state, headers, body, sleep, clientGone }) =>
    handleTranscription({ state, headers, body: body as AudioUpload, sleep, clientGone }),
  'GET /_sim/transcriptions/stats': ({ state }) => jsonReply(200, state.transcriptionStats),
  // AssemblyAI's asynchronous shape; the server reads the upload's body as bytes.
  'POST /v2/upload': ({ state, headers, body, sleep }) => handleUpload({ state, headers, sleep, body: body as AudioUpload }),
  'POST /v2/transcript': ({ state, headers, body, sleep }) => handleSubmit({ state, headers, sleep, body }),
  'GET /v2/transcript/:id': ({ state, headers, sleep }, id) => handleGetTranscript({ state, headers, sleep }, id),
  'DELETE /v2/transcript/:id': ({ state, headers, sleep }, id) => handleDeleteTranscript({ state, headers, sleep }, id),
  'GET /_sim/assemblyai/stats': ({ state }) => jsonReply(200, state.asyncTranscripts.stats),
  'GET /healthz': () => jsonReply(200, { ok: true }),
  'GET /_sim/config': ({ state }) => admin.getConfig(state),
  'PUT /_sim/config': ({ state, body }) => admin.putConfig(state, body),
  'GET /_sim/limits': ({ state }) => admin.getLimits(state),
  'PUT /_sim/limits': ({ state, body }) => admin.putLimits(state, body),
  'DELETE /_sim/limits': ({ state }) => admin.restoreLimits(state),
  'POST /_sim/faults': ({ state, body }) => admin.addFaultRule(state, body),
  'GET /_sim/faults': ({ state }) => admin.listFaultRules(state),
  'DELETE /_sim/faults': ({ state }) => admin.clearFaultRules(state),
  'DELETE /_sim/faults/:id': ({ state }, id) => admin.removeFaultRule(state, id),
  'GET /_sim/stats': ({ state }) => admin.getStats(state),
  'GET /_sim/files': ({ state }) => jsonReply(200, { uploads: state.files.uploadLog() }),
  'GET /_sim/request-bytes': ({ state }) => jsonReply(200, { ...state.requestBytes, fileUploads: state.files.uploads }),
  'GET /_sim/batch-billing': ({ state, query }) => jsonReply(200, state.batches.billing({ textIncludes: query.get('textIncludes') ?? undefined })),
  'GET /_sim/calls': ({ state, query }) => admin.getCalls(state, query),
  'POST /_sim/reset': ({ state }) => admin.resetSimulator(state),
};

const FAULT_BY_ID = /^\/_sim\/faults\/([^/]+)$/;
const TRANSCRIPT_BY_ID = /^\/v2\/transcript\/([^/]+)$/;

/** Finds the handler for a method and path; the parameterised paths are a fault rule's id and a transcript's. */
export function route(method: string, pathname: string, context: RouteContext): HttpReply | Promise<HttpReply> {
  const exact = ROUTES[`${method} ${pathname}`];
  if (exact) return exact(context, '');
  if (method === 'POST' && pathname === '/v1/messages/batches') {
    const problem = resolveBatchFileSources(context.body, context.headers, context.state.files);
    if (problem) return errorReply(problem);
  }
  const batches = routeMessageBatches(method, pathname, context);
  if (batches) return batches;
  const transcript = TRANSCRIPT_BY_ID.exec(pathname);
  const transcriptRoute = transcript ? ROUTES[`${method} /v2/transcript/:id`] : undefined;
  if (transcript && transcriptRoute) return transcriptRoute(context, decodeURIComponent(transcript[1] ?? ''));
  const files = routeFiles(method, pathname, context);
  if (files) return files;
  const byId = FAULT_BY_ID.exec(pathname);
  const withId = byId ? ROUTES[`${method} /_sim/faults/:id`] : undefined;
  if (byId && withId) return withId(context, decodeURIComponent(byId[1] ?? ''));
  return errorReply(apiError('not_found_error', `${method} ${pathname} is not simulated`));
}

/** The Messages API's paths, which carry its rate-limit headers; the embeddings endpoint keeps its own limits. */
export function isApiPath(pathname: string): boolean {
  return pathname.startsWith('/v1/messages');
}

/** A request whose blocks name uploaded files is read as if they were inline (files/resolve-file-sources.ts). */
function withFilesResolved(context: RouteContext, handle: () => HttpReply | Promise<HttpReply>): HttpReply | Promise<HttpReply> {
  const messages = isRecord(context.body) ? context.body.messages : undefined;
  const problem = resolveFileSources(messages, context.headers, context.state.files);
  return problem ? errorReply(problem) : handle();
}
