import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptAes128gcm, type SubscriberKeys } from './aes128gcm';
import { checkVapid } from './vapid';

/** A push as the subscriber read it. */
export interface ReceivedPush {
  payload: unknown;
  ttl: number;
  urgency?: string;
  /** The VAPID contact the sender signed with. */
  subject: string;
  receivedAt: string;
}

/** A push the service refused, and why (a bad VAPID JWT, an undecryptable body, a gone subscriber). */
export interface RefusedPush {
  status: number;
  reason: string;
}

/** What `pushManager.subscribe()` hands a page: the W3C PushSubscription's JSON. */
export interface StandInSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

interface Subscriber {
  id: string;
  applicationServerKey: string;
  keys: SubscriberKeys;
  gone: boolean;
  received: ReceivedPush[];
  refused: RefusedPush[];
}

export interface PushServiceStandIn {
  url: string;
  /** Makes a subscription as a browser would for a page whose applicationServerKey is given. */
  subscribe(applicationServerKey: string): { id: string; subscription: StandInSubscription };
  received(id: string): ReceivedPush[];
  refused(id: string): RefusedPush[];
  /** From now on pushes to this subscription answer 410 Gone (the user revoked the permission). */
  markGone(id: string): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4096 + 200;

/**
 * A Web Push service stand-in on loopback (RFC 8030 §5 push resource, RFC 8291 encryption, RFC 8292 VAPID): it
 * receives pushes, verifies their VAPID JWT, decrypts them with the subscriber's private key and keeps what arrived
 * for the tests, as a browser's push service and the browser together would. Beside the subscribe API in process,
 * `POST /subscribers`, `GET /subscribers/:id/messages` and `POST /subscribers/:id/gone` do the same over HTTP.
 */
export async function startPushServiceStandIn(options: { port?: number } = {}): Promise<PushServiceStandIn> {
  const subscribers = new Map<string, Subscriber>();
  let origin = '';

  function subscribe(applicationServerKey: string) {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const keys: SubscriberKeys = { privateKey: ecdh.getPrivateKey(), publicKey: ecdh.getPublicKey(), auth: randomBytes(16) };
    const id = randomUUID();
    subscribers.set(id, { id, applicationServerKey, keys, gone: false, received: [], refused: [] });
    const subscription: StandInSubscription = {
      endpoint: `${origin}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: keys.publicKey.toString('base64url'), auth: keys.auth.toString('base64url') },
    };
    return { id, subscription };
  }

  function receive(subscriber: Subscriber, req: IncomingMessage, body: Buffer): RefusedPush | ReceivedPush {
    if (subscriber.gone) return { status: 410, reason: 'the subscription is gone' };
    const vapid = checkVapid(req.headers.authorization, origin, subscriber.applicationServerKey);
    if (!vapid.ok) return { status: vapid.status, reason: vapid.reason };
    const ttl = Number(req.headers.ttl);
    if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) return { status: 400, reason: 'no valid TTL header (RFC 8030 §5.2)' };
    if (req.headers['content-encoding'] !== 'aes128gcm') return { status: 415, reason: `content-encoding ${req.headers['content-encoding']} is not aes128gcm` };
    if (body.length > MAX_BODY_BYTES) return { status: 413, reason: `${body.length} bytes is over 4 KB` };
    let payload: unknown;
    try {
      payload = JSON.parse(decryptAes128gcm(body, subscriber.keys).toString('utf8'));
    } catch (error) {
      return { status: 400, reason: `undecryptable: ${(error as Error).message}` };
    }
    const urgency = req.headers.urgency;
    return { payload, ttl, ...(typeof urgency === 'string' ? { urgency } : {}), subject: vapid.subject, receivedAt: new Date().toISOString() };
  }

  const found = (id: string | undefined) => (id ? subscribers.get(id) : undefined);
  const reply = (res: ServerResponse, status: number, body?: unknown) => {
    res.statusCode = status;
    if (body === undefined) return res.end();
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const [, first, id, action] = (req.url ?? '').split('?')[0]?.split('/') ?? [];
      if (req.method === 'POST' && first === 'push') {
        const subscriber = found(id);
        if (!subscriber) return reply(res, 404, { reason: 'no such subscription' });
        const outcome = receive(subscriber, req, body);
        if ('reason' in outcome) {
          subscriber.refused.push(outcome);
          return reply(res, outcome.status, { reason: outcome.reason });
        }
        subscriber.received.push(outcome);
        res.setHeader('location', `${origin}/messages/${randomUUID()}`);
        return reply(res, 201);
      }
      if (req.method === 'POST' && first === 'subscribers' && !id) {
        const { applicationServerKey } = JSON.parse(body.toString('utf8') || '{}') as { applicationServerKey?: string };
        if (!applicationServerKey) return reply(res, 400, { reason: 'applicationServerKey is required' });
        return reply(res, 201, subscribe(applicationServerKey));
      }
      const subscriber = found(id);
      if (first === 'subscribers' && subscriber && req.method === 'GET' && action === 'messages') {
        return reply(res, 200, { received: subscriber.received, refused: subscriber.refused });
      }
      if (first === 'subscribers' && subscriber && req.method === 'POST' && action === 'gone') {
        subscriber.gone = true;
        return reply(res, 204);
      }
      return reply(res, 404, { reason: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const subscriberOf = (id: string) => {
    const subscriber = subscribers.get(id);
    if (!subscriber) throw new Error(`no subscriber ${id}`);
    return subscriber;
  };
  return {
    url: origin,
    subscribe,
    received: (id) => subscriberOf(id).received,
    refused: (id) => subscriberOf(id).refused,
    markGone: (id) => {
      subscriberOf(id).gone = true;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
