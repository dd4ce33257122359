import { type Static, Type } from '@sinclair/typebox';
import { JobEvent, JobProgressEvent, JobStreamEnd } from './job-event';
import { closed, dateTime, ref, stringEnum } from './schema-kit';
import { JobStatus, JobType } from './vocabulary';

/** `POST /events/socket/tokens`: what opens one WebSocket on `GET /events/socket?token=…`. */
export const SocketToken = closed({
  token: Type.String({ description: 'Opens one WebSocket, once, before `expiresAt`; it names the tenant and the caller who asked for it.' }),
  expiresAt: dateTime(),
  url: Type.String({ format: 'uri', description: 'The WebSocket URL with the token in its query (`ws:` or `wss:`).' }),
});
export type SocketToken = Static<typeof SocketToken>;

/** The largest number of job ids one subscribe message may name (and of resume positions it may carry). */
export const SOCKET_MAX_JOB_IDS = 100;

const subscription = () =>
  Type.String({ minLength: 1, maxLength: 64, description: 'The client’s name for this subscription; every message about it carries it back.' });
const jobId = () => Type.String({ minLength: 1, maxLength: 1000 });
const lastEventIds = () =>
  Type.Optional(
    Type.Record(Type.String({ maxLength: 1000 }), Type.Integer({ minimum: 0 }), {
      maxProperties: SOCKET_MAX_JOB_IDS,
      description: 'Per job, the id of the last event seen (the SSE `Last-Event-ID`): only later events are sent.',
    }),
  );

export const SocketSubscribeToJobs = closed({
  type: Type.Literal('subscribe'),
  subscription: subscription(),
  jobIds: Type.Array(jobId(), { minItems: 1, maxItems: SOCKET_MAX_JOB_IDS, uniqueItems: true }),
  lastEventIds: lastEventIds(),
});

export const SocketSubscribeToFilter = closed({
  type: Type.Literal('subscribe'),
  subscription: subscription(),
  filter: closed(
    { type: Type.Optional(ref('JobType', JobType)), status: Type.Optional(ref('JobStatus', JobStatus)) },
    { description: 'The tenant’s jobs of this type and status, as `GET /jobs?type=&status=` lists them (its first page).' },
  ),
  lastEventIds: lastEventIds(),
});

export const SocketUnsubscribe = closed({ type: Type.Literal('unsubscribe'), subscription: subscription() });

/** What a client may send: one JSON text message each. */
export const SocketClientMessage = Type.Union([SocketSubscribeToJobs, SocketSubscribeToFilter, SocketUnsubscribe]);
export type SocketClientMessage = Static<typeof SocketClientMessage>;

const eventId = () => Type.Optional(Type.Integer({ minimum: 1, description: 'The job’s event id, the same as SSE’s; absent on the server-side status sent while no worker answers.' }));

/** What the server sends: one JSON text message each. */
export const SocketServerMessage = Type.Union([
  closed({ type: Type.Literal('subscribed'), subscription: subscription() }),
  closed({ type: Type.Literal('unsubscribed'), subscription: subscription() }),
  closed({ type: Type.Literal('event'), subscription: subscription(), event: Type.Literal('status'), id: eventId(), data: ref('JobEvent', JobEvent) }),
  closed({ type: Type.Literal('event'), subscription: subscription(), event: Type.Literal('progress'), id: eventId(), data: ref('JobProgressEvent', JobProgressEvent) }),
  closed({ type: Type.Literal('event'), subscription: subscription(), event: Type.Literal('end'), data: ref('JobStreamEnd', JobStreamEnd) }),
  closed({
    type: Type.Literal('error'),
    code: stringEnum(['invalid_message', 'not_found', 'subscription_exists', 'no_such_subscription']),
    message: Type.String(),
    subscription: Type.Optional(subscription()),
    jobId: Type.Optional(jobId()),
  }),
]);
export type SocketServerMessage = Static<typeof SocketServerMessage>;

/** Close codes the server uses beyond RFC 6455's own (1003 binary message, 1008 abuse, 1009 too large, 1001 shutdown). */
export const SOCKET_CLOSE = {
  /** The tenant holds every connection or subscription its share allows; the reason names which and the limit. */
  tooMany: 4429,
} as const;
