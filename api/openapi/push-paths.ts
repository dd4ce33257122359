import { PUSH_PATH } from '../push/push-routes';
import { bodyRef, type Schema } from './refs';
import { json, responses } from './responses';

const callers = [{ apiKey: [] }, { reviewerToken: [] }];
const notEnabled = { description: '`not_found`: Web Push is not enabled on this deployment (`PUSH_ENABLED`).', content: json(bodyRef('ErrorBody')) };

const script = (operationId: string, summary: string): Schema => ({
  get: {
    operationId,
    summary,
    tags: ['push'],
    security: [],
    responses: responses({ '200': { description: summary, content: { 'text/javascript': { schema: { type: 'string' } } } }, '404': notEnabled }),
  },
});

/** Web Push: the subscriptions a browser or app registers, the key it subscribes with, and two browser scripts. */
export const pushPaths: Record<string, Schema> = {
  [`${PUSH_PATH}/vapid-public-key`]: {
    get: {
      operationId: 'getVapidPublicKey',
      summary: 'The VAPID public key to subscribe with',
      description: 'Pass it, decoded from base64url to bytes, as `applicationServerKey` to `pushManager.subscribe()`; pushes are signed with its private key (RFC 8292).',
      tags: ['push'],
      security: [],
      responses: responses({ '200': { description: 'The key.', content: json(bodyRef('VapidPublicKey')) }, '404': notEnabled }),
    },
  },
  [`${PUSH_PATH}/subscriptions`]: {
    post: {
      operationId: 'createPushSubscription',
      summary: 'Register a Web Push subscription for a job or for the review queue',
      description:
        'The body is the browser’s `PushSubscription.toJSON()` plus exactly one of `jobId` (a push when the job waits for review and when it ends: posted, completed, rejected, review_expired, failed, dead_letter, cancelled) and `reviewQueue: true` (a push for every job of the tenant that starts waiting for review). ' +
        'Each push is encrypted for the subscription (RFC 8291, aes128gcm) and carries a `PushMessage`: the job’s status event with the same id as SSE and the WebSocket, never its result. ' +
        'The endpoint must be `https:` (the local stack also takes its stand-in’s loopback `http:`) and not point into a private network; `keys.p256dh` must be a P-256 point, `keys.auth` 16 bytes. ' +
        'Registering the same endpoint for the same job or queue again renews it (200) instead of adding one. A push service’s 404 or 410 removes the subscription; a job’s subscriptions go once it ended. ' +
        'A tenant holds at most `PUSH_MAX_SUBSCRIPTIONS_PER_TENANT`.',
      tags: ['push'],
      security: callers,
      requestBody: { required: true, content: json(bodyRef('PushSubscriptionRequest')) },
      responses: responses(
        {
          '201': {
            description: 'Registered.',
            headers: { Location: { description: 'The subscription’s URL.', schema: { type: 'string' } } },
            content: json(bodyRef('PushSubscription')),
          },
          '200': {
            description: 'The same endpoint already followed this job or queue: renewed with the keys sent.',
            headers: { Location: { description: 'The subscription’s URL.', schema: { type: 'string' } } },
            content: json(bodyRef('PushSubscription')),
          },
          '404': {
            description: '`not_found`: `jobId` names no job of this tenant (another tenant’s answers the same way), or Web Push is not enabled (`PUSH_ENABLED`).',
            content: json(bodyRef('ErrorBody')),
          },
          '409': {
            description: '`too_many_subscriptions`: the tenant holds `PUSH_MAX_SUBSCRIPTIONS_PER_TENANT` already; `details.limit`.',
            content: json(bodyRef('ErrorBody')),
          },
        },
        400,
        401,
        413,
        503,
      ),
    },
    get: {
      operationId: 'listPushSubscriptions',
      summary: 'List this tenant’s Web Push subscriptions',
      description: 'Oldest first. Endpoints are capability URLs, so only their origin is shown; keys never are.',
      tags: ['push'],
      security: callers,
      responses: responses({ '200': { description: 'The subscriptions.', content: json(bodyRef('PushSubscriptionList')) }, '404': notEnabled }, 401),
    },
  },
  [`${PUSH_PATH}/subscriptions/{id}`]: {
    delete: {
      operationId: 'deletePushSubscription',
      summary: 'Remove a Web Push subscription',
      tags: ['push'],
      security: callers,
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The `id` `POST /push/subscriptions` answered.', schema: { type: 'string' } }],
      responses: responses(
        {
          '204': { description: 'Removed; no more pushes go to it.' },
          '404': { description: '`not_found`: no such subscription of this tenant (another tenant’s answers the same way), or Web Push is not enabled.', content: json(bodyRef('ErrorBody')) },
        },
        401,
      ),
    },
  },
  [`${PUSH_PATH}/service-worker.js`]: script('getPushServiceWorker', 'A service worker that shows each push as a notification and posts it to the open pages'),
  [`${PUSH_PATH}/subscribe.js`]: script('getPushSubscribeHelper', 'A page helper: `slowlanePush.subscribe({ token, jobId } | { token, reviewQueue: true })`, `slowlanePush.unsubscribe({ token, id })`'),
};


