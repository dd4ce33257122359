import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp, type AppDeps } from './app';
import { attachJobSocket } from './socket/job-socket-server';
import { createSocketTokens } from './socket/socket-tokens';

export interface RunningApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A request Node's parser refuses (headers over 16 KB, a malformed request line) never reaches Express; by default
 * Node answers with an empty body. Answer in the API's error shape instead, so every 4xx reads the same.
 */
export function answerUnparsableRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({
    error: tooLarge
      ? { code: 'request_header_fields_too_large', message: 'the URL and headers together are over 16 KB' }
      : { code: 'invalid_request', message: 'the request could not be parsed as HTTP' },
  });
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Starts the API; port 0 picks a free port (tests). */
export async function startApiServer(deps: AppDeps, listen: { host: string; port: number }): Promise<RunningApi> {
  const app = createApp(deps);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(listen.port, listen.host, () => resolve(s));
    s.on('error', reject);
  });
  // A 25 MB upload on a slow link can take longer than Node's default 5 minutes to arrive.
  server.requestTimeout = 10 * 60 * 1000;
  server.on('clientError', answerUnparsableRequest);
  // Its own token instance: any one keyed by the same secret checks another's tokens (as replicas do).
  const sockets = attachJobSocket(server, { config: deps.config, jobs: deps.jobs, tokens: createSocketTokens(deps.config), log: deps.log });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${listen.host}:${port}`,
    port,
    close: () =>
      new Promise((resolve, reject) => {
        sockets.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
