import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { SOCKET_CLOSE, type SocketServerMessage } from '../../common/api-contract/job-socket';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import { formatErrors } from '../../common/schema-errors';
import type { JobsService } from '../jobs-service';
import { requestValidators } from '../request-validation';
import { tenantSlots } from '../tenant-slots';
import { SocketSession } from './socket-session';
import { SOCKET_PATH } from './socket-routes';
import type { SocketTokens } from './socket-tokens';

/** A client message larger than this closes the socket (1009): subscribe messages are small. */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Invalid messages a connection may send before it is closed (1008): a client with a bug hears why, a flood ends. */
const MAX_INVALID_MESSAGES = 20;
/** While this much is still unsent to a slow reader, its jobs are not read again (events wait in the cursors). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface JobSocketDeps {
  config: Pick<Config, 'clients'>;
  jobs: JobsService;
  tokens: SocketTokens;
  log: Logger;
}

/**
 * `GET /events/socket`: one WebSocket carries the events of many jobs (docs/clients.md). The token is checked
 * before the upgrade, so a refused client never gets a socket; the per-tenant caps are told after it, as a close
 * code and reason, because a browser cannot read the status of a refused upgrade.
 */
export function attachJobSocket(server: Server, deps: JobSocketDeps): { close(): void } {
  const { clients } = deps.config;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const connections = tenantSlots(clients.socketMaxConnectionsPerTenant);
  const subscriptions = tenantSlots(clients.socketMaxSubscriptionsPerTenant);
  const alive = new WeakMap<WebSocket, boolean>();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== SOCKET_PATH) return refuse(socket, 404, 'not_found', 'no WebSocket here; see /openapi.json');
    const token = url.searchParams.get('token');
    const caller = token ? deps.tokens.redeem(token) : undefined;
    if (!caller) return refuse(socket, 401, 'unauthorized', `open the socket with a fresh token from POST ${SOCKET_PATH}/tokens in ?token=`);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const release = connections.tryAcquire(caller.tenant.id);
      if (!release) return ws.close(SOCKET_CLOSE.tooMany, `too_many_connections: this tenant already has ${connections.limit} sockets open`);
      alive.set(ws, true);
      ws.on('pong', () => alive.set(ws, true));
      const send = (message: SocketServerMessage) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
      };
      const session = new SocketSession({ jobs: deps.jobs, log: deps.log, subscriptions }, caller, send);
      let invalid = 0;
      const refuseMessage = (message: string) => {
        invalid += 1;
        if (invalid > MAX_INVALID_MESSAGES) return ws.close(1008, `more than ${MAX_INVALID_MESSAGES} invalid messages`);
        send({ type: 'error', code: 'invalid_message', message });
      };
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) return ws.close(1003, 'messages are JSON text');
        let parsed: unknown;
        try {
          parsed = JSON.parse(rawText(data));
        } catch {
          return refuseMessage('the message is not JSON');
        }
        if (!requestValidators.socketClientMessage(parsed)) {
          return refuseMessage(`not a subscribe or unsubscribe message (docs/clients.md): ${formatErrors(requestValidators.socketClientMessage.errors ?? []).slice(0, 3).join('; ')}`);
        }
        const outcome = session.handle(parsed);
        if (outcome.kind === 'too_many_subscriptions') {
          ws.close(SOCKET_CLOSE.tooMany, `too_many_subscriptions: this tenant already follows ${outcome.limit} jobs and filters`);
        }
      });
      // ws reports a protocol violation or an oversized message here, then closes the socket itself.
      ws.on('error', (error) => deps.log.debug({ err: error, tenantId: caller.tenant.id }, 'websocket error'));

      const polling = { stopped: false };
      ws.on('close', () => {
        polling.stopped = true;
        session.close();
        release();
      });
      void (async () => {
        while (!polling.stopped) {
          if (ws.bufferedAmount < MAX_BUFFERED_BYTES) await session.poll().catch((error: unknown) => deps.log.warn({ err: error }, 'socket poll failed'));
          await new Promise((resolve) => setTimeout(resolve, clients.eventsPollMs));
        }
      })();
    });
  });

  // A socket that has not answered the last ping is gone (a dropped laptop, a dead proxy): end it, free its slots.
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, clients.socketHeartbeat);
  heartbeat.unref();

  return {
    close() {
      clearInterval(heartbeat);
      for (const ws of wss.clients) {
        ws.close(1001, 'the server is shutting down');
        // A client that does not answer the close handshake must not hold the shutdown.
        setTimeout(() => ws.terminate(), 1000).unref();
      }
      wss.close();
    },
  };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** A refused upgrade answers in the API's error shape, like every other 4xx. */
function refuse(socket: Duplex, status: 401 | 404, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  const reason = status === 401 ? 'Unauthorized' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
