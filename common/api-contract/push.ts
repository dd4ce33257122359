import { type Static, Type } from '@sinclair/typebox';
import { JobEvent } from './job-event';
import { closed, dateTime, ref, stringEnum } from './schema-kit';
import { JobType } from './vocabulary';

/** What a subscription follows: one job's completion or failure, or the tenant's review queue (each new review task). */
export const PUSH_SCOPES = ['job', 'review_queue'] as const;
export type PushScope = (typeof PUSH_SCOPES)[number];

/** Base64url of a fixed number of bytes: `chars` characters unpadded, or padded to a multiple of four. */
const base64urlOf = (pattern: string, description: string) => Type.String({ pattern, description });

/**
 * The body of `POST /push/subscriptions`: a W3C PushSubscription as the browser's `subscription.toJSON()` gives it,
 * plus what it follows, exactly one of `jobId` and `reviewQueue`.
 */
export const PushSubscriptionRequest = closed(
  {
    endpoint: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description:
        'The push service URL of this browser or app (`https:`; the local stack also takes its stand-in’s loopback `http:` URL).',
    }),
    expirationTime: Type.Optional(
      Type.Union([Type.Number(), Type.Null()], { description: 'As the browser gives it; ignored.' }),
    ),
    keys: closed({
      // 65 bytes starting 0x04 are 87 base64url characters starting `B`; whether the point is on the curve, only the API can say (a 400).
      p256dh: base64urlOf(
        '^B[A-Za-z0-9_-]{86}=?$',
        'The subscriber’s P-256 public key: 65 bytes, uncompressed (RFC 8291), base64url; it must be a point on the curve.',
      ),
      auth: base64urlOf(
        '^[A-Za-z0-9_-]{22}(==)?$',
        'The subscriber’s 16-byte authentication secret (RFC 8291), base64url.',
      ),
    }),
    jobId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'Follow this job of the tenant: a push when it finishes (or fails) and when it waits for review.',
      }),
    ),
    reviewQueue: Type.Optional(
      Type.Literal(true, {
        description: 'Follow the tenant’s review queue: a push for every job that starts waiting for review.',
      }),
    ),
  },
  { oneOf: [Type.Object({ jobId: Type.Unknown() }), Type.Object({ reviewQueue: Type.Unknown() })] },
);
export type PushSubscriptionRequest = Static<typeof PushSubscriptionRequest>;

/** A stored subscription as the API shows it: the endpoint is a capability URL, so only its origin is shown. */
export const PushSubscriptionView = closed({
  id: Type.String({ description: 'Names the subscription for `DELETE /push/subscriptions/{id}`.' }),
  scope: stringEnum(PUSH_SCOPES),
  jobId: Type.Optional(Type.String()),
  endpointOrigin: Type.String({ description: 'The push service (scheme, host and port of the endpoint).' }),
  createdAt: dateTime(),
  createdBy: Type.String({ description: 'The API key’s tenant or the reviewer who registered it.' }),
});
export type PushSubscriptionView = Static<typeof PushSubscriptionView>;

export const PushSubscriptionList = closed({
  subscriptions: Type.Array(ref('PushSubscription', PushSubscriptionView)),
});
export type PushSubscriptionList = Static<typeof PushSubscriptionList>;

export const VapidPublicKey = closed({
  publicKey: Type.String({
    description:
      'The VAPID public key, base64url: pass it (decoded to bytes) as `applicationServerKey` to `pushManager.subscribe`.',
  }),
});
export type VapidPublicKey = Static<typeof VapidPublicKey>;

/**
 * What each push carries once the browser has decrypted it: the job's status event, with the same id as SSE and the
 * WebSocket (so a page that opens resumes from it), never the job's result. Small by design: push services take
 * about 4 KB.
 */
export const PushMessage = closed({
  event: Type.Literal('status'),
  id: Type.Integer({ minimum: 1, description: 'The job’s event id, the same as SSE’s `id` and the WebSocket’s.' }),
  scope: stringEnum(PUSH_SCOPES, { description: 'Which kind of subscription this push answers.' }),
  jobType: ref('JobType', JobType),
  data: ref('JobEvent', JobEvent),
});
export type PushMessage = Static<typeof PushMessage>;
