import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { apiError } from './api-errors';
import { systemClock, type Clock } from './clock';
import { errorReply, type HttpReply } from './http-reply';
import { DEFAULT_OPTIONS, type SimulatorOptions } from './options';
import { rateLimitHeaders } from './rate-limit-headers';
import { isApiPath, route } from './router';
import { SimulatorState } from './state';
import { TRANSCRIPTION_UPLOAD_LIMIT_BYTES } from '../../lib/config/speech-settings';
import type { AudioUpload } from './transcriptions/transcriptions-handler';
import { type FileUpload, MAX_FILE_BYTES } from './files/files-handler';

/** The provider's own request size limits: Messages and token counting 32 MB, a Message Batch 256 MB (platform.claude.com/docs/en/api/errors, …/build-with-claude/batch-processing). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const MAX_BATCH_BODY_BYTES = 256 * 1024 * 1024;

export interface RunningSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface SimulatorDependencies {
  clock?: Clock;
}

class BodyTooLarge extends Error {}

/** The body as text; `onBytes` hears how many bytes came (the request-bytes figure counts what a client sent). */
async function readBody(request: IncomingMessage, limit: number, onBytes: (bytes: number) => void, encoding: BufferEncoding = 'utf8'): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limit) throw new BodyTooLarge();
      chunks.push(buffer);
    }
  } finally {
    onBytes(size);
  }
  return Buffer.concat(chunks).toString(encoding);
}

const TRANSCRIPTIONS_PATH = '/v1/audio/transcriptions';
/** AssemblyAI's upload: raw audio bytes, up to 2.2 GB there; the simulator holds uploads in memory, so far less here. */
const ASYNC_UPLOAD_PATH = '/v2/upload';
const ASYNC_UPLOAD_LIMIT_BYTES = 256 * 1024 * 1024;
const FILES_PATH = '/v1/files';

/**
 * An upload's bytes, or past the limit only their count: the rest is read and dropped, so the client, still sending,
 * gets the 413 rather than a reset connection.
 */
async function readUpload(request: IncomingMessage, limit: number): Promise<AudioUpload> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size <= limit) chunks.push(buffer);
  }
  if (size > limit) return { tooLarge: true, bytesRead: size, limit };
  return { bytes: Buffer.concat(chunks), contentType: request.headers['content-type'] ?? '' };
}

type BodyResult = { ok: true; body: unknown } | { ok: false; reply: HttpReply };

/** A Files API upload's raw multipart body (files/files-handler.ts parses it); over the limit, a 413. */
async function readFileUpload(request: IncomingMessage, onBytes: (bytes: number) => void): Promise<BodyResult> {
  try {
    const text = await readBody(request, MAX_FILE_BYTES, onBytes, 'binary');
    return { ok: true, body: { bytes: Buffer.from(text, 'binary'), contentType: request.headers['content-type'] ?? '' } satisfies FileUpload };
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    return { ok: false, reply: errorReply(apiError('request_too_large', `Request exceeds the maximum size of ${MAX_FILE_BYTES / 1024 / 1024} MB`)) };
  }
}

async function parseBody(request: IncomingMessage, onBytes: (bytes: number) => void): Promise<BodyResult> {
  const limit = request.url?.startsWith('/v1/messages/batches') ? MAX_BATCH_BODY_BYTES : MAX_BODY_BYTES;
  try {
    const text = await readBody(request, limit, onBytes);
    return { ok: true, body: text.trim() === '' ? undefined : (JSON.parse(text) as unknown) };
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return {
        ok: false,
        reply: errorReply(apiError('request_too_large', `Request exceeds the maximum size of ${limit / 1024 / 1024} MB`)),
      };
    }
    if (error instanceof SyntaxError) {
      return { ok: false, reply: errorReply(apiError('invalid_request_error', 'request body is not valid JSON')) };
    }
    throw error;
  }
}

function send(response: ServerResponse, reply: HttpReply, headers: Record<string, string>): void {
  if (response.destroyed) return;
  const body = reply.raw ? reply.raw.text : JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    'content-type': reply.raw ? reply.raw.contentType : 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
    ...reply.headers,
  });
  response.end(body);
}

/**
 * Starts the provider simulator on `options.host:options.port` (port 0 picks a free one, for tests).
 * Listens on loopback by default: it has no real authentication and must not be reachable from outside.
 */
export async function startSimulator(
  options: Partial<SimulatorOptions> = {},
  dependencies: SimulatorDependencies = {},
): Promise<RunningSimulator> {
  const settings: SimulatorOptions = { ...DEFAULT_OPTIONS, ...options };
  const state = new SimulatorState(settings, dependencies.clock ?? systemClock);
  // Aborted on close, so replies waiting out simulated latency do not keep the process alive.
  const shutdown = new AbortController();
  const sleep = (ms: number): Promise<void> =>
    ms > 0 ? delay(ms, undefined, { signal: shutdown.signal }) : Promise.resolve();

  const server = createServer((request, response) => {
    void (async () => {
      const requestId = state.newId('req');
      const url = new URL(request.url ?? '/', 'http://simulator');
      const countBytes = (bytes: number) => state.countRequestBytes(url.pathname, bytes);
      const parsed: BodyResult =
        url.pathname === TRANSCRIPTIONS_PATH
          ? { ok: true, body: await readUpload(request, TRANSCRIPTION_UPLOAD_LIMIT_BYTES) }
          : url.pathname === ASYNC_UPLOAD_PATH
            ? { ok: true, body: await readUpload(request, ASYNC_UPLOAD_LIMIT_BYTES) }
            : url.pathname === FILES_PATH && request.method === 'POST'
              ? await readFileUpload(request, countBytes)
              : await parseBody(request, countBytes);
      const reply = parsed.ok
        ? await route(request.method ?? 'GET', url.pathname, {
            state,
            requestId,
            headers: request.headers,
            query: url.searchParams,
            body: parsed.body,
            sleep,
            // Destroyed before anything was written: the client closed the connection while its answer was made.
            clientGone: () => response.destroyed && !response.writableFinished,
          })
        : parsed.reply;
      const extra = isApiPath(url.pathname) ? rateLimitHeaders(state.limiter.snapshot()) : {};
      // The date on the simulator's own (possibly injected) clock: clients measure the reset times against it.
      send(response, reply, { 'request-id': requestId, date: new Date(state.clock.now()).toUTCString(), ...extra });
    })().catch((error: unknown) => {
      if (shutdown.signal.aborted) {
        response.destroy();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      send(response, errorReply(apiError('api_error', `simulator failure: ${message}`)), {});
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;

  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        shutdown.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
