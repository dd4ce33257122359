import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { SocketClientMessage, SocketServerMessage, SocketToken } from '../../common/api-contract/job-socket';

export interface Closed {
  code: number;
  reason: string;
}

/** A `ws` client of `GET /events/socket` that keeps every message, for tests to wait on. */
export interface TestSocket {
  readonly messages: SocketServerMessage[];
  send(message: SocketClientMessage | string | Buffer): void;
  /** The first message (already received or still to come) that matches. */
  next<T extends SocketServerMessage>(matches: (message: SocketServerMessage) => message is T): Promise<T>;
  next(matches: (message: SocketServerMessage) => boolean): Promise<SocketServerMessage>;
  readonly closed: Promise<Closed>;
  close(): void;
}

/** `POST /events/socket/tokens` with this key. */
export async function socketToken(baseUrl: string, key: string): Promise<SocketToken> {
  const response = await fetch(`${baseUrl}/events/socket/tokens`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as SocketToken;
}

/** Opens a socket at this URL; resolves once it is open, or rejects with the status of a refused upgrade. */
export function openSocketAt(url: string, options: { autoPong?: boolean } = {}): Promise<TestSocket> {
  const ws = new WebSocket(url, { autoPong: options.autoPong ?? true });
  const messages: SocketServerMessage[] = [];
  const waiters: Array<{ matches: (message: SocketServerMessage) => boolean; resolve: (message: SocketServerMessage) => void }> = [];
  ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as SocketServerMessage;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (!waiter.matches(message)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  const closed = new Promise<Closed>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  const socket: TestSocket = {
    messages,
    send: (message) => ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message), { binary: Buffer.isBuffer(message) }),
    next: (matches: (message: SocketServerMessage) => boolean) =>
      new Promise<SocketServerMessage>((resolve) => {
        const seen = messages.find(matches);
        if (seen) return resolve(seen);
        waiters.push({ matches, resolve });
      }),
    closed,
    close: () => ws.close(),
  } as TestSocket;
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_req, res) => reject(new RefusedUpgrade(res.statusCode ?? 0)));
    ws.once('error', reject);
  });
}

/** Mints a token with this key and opens the socket with it. */
export async function openSocket(baseUrl: string, key: string, options: { autoPong?: boolean } = {}): Promise<TestSocket> {
  return openSocketAt((await socketToken(baseUrl, key)).url, options);
}

export class RefusedUpgrade extends Error {
  constructor(readonly status: number) {
    super(`the upgrade was refused with ${status}`);
  }
}

/** The status of a refused upgrade at this URL (fails if the socket opens). */
export async function refusedStatus(url: string): Promise<number> {
  try {
    const socket = await openSocketAt(url);
    socket.close();
  } catch (error) {
    if (error instanceof RefusedUpgrade) return error.status;
    throw error;
  }
  assert.fail(`the socket at ${url} opened`);
}

export const isEvent = (message: SocketServerMessage): message is Extract<SocketServerMessage, { type: 'event' }> => message.type === 'event';
