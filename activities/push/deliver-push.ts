import { Context } from '@temporalio/activity';
import { generateRequestDetails } from 'web-push';
import { isTerminal } from '../../common/job';
import { PushDeliveryFailedError, PushRejectedError } from '../../common/errors';
import type { DeliverPushInput, PushMessage, PushOutcome } from '../../common/push';
import type { CallbackUrlPolicy } from '../../lib/callback-url';
import { NonPublicCallbackAddressError } from '../../lib/callback-url';
import type { PushConfig } from '../../lib/config/push-config';
import { checkPushEndpoint } from '../../lib/push/push-endpoint';
import type { PushSubscriptions } from '../../lib/push/push-subscriptions';
import { nextDeliveryDelayMs } from '../deliver-webhook';
import { postJson, type PostJson, type PostJsonAnswer } from '../post-json';

/** A push service gets this long to answer; a slow one is retried later rather than holding a worker slot. */
const PUSH_SERVICE_TIMEOUT_MS = 15_000;

export interface DeliverPushDeps {
  subscriptions: PushSubscriptions;
  push: Pick<PushConfig, 'vapid' | 'ttlMs' | 'allowLoopbackHttp'>;
  policy: CallbackUrlPolicy;
  post?: PostJson;
}

/**
 * Encrypts one status event for one subscription (RFC 8291, aes128gcm) and sends it with a VAPID JWT (RFC 8292);
 * `web-push` builds the request, our own guarded connection sends it (lib/callback-url.ts), as for webhooks.
 */
export function createDeliverPush(deps: DeliverPushDeps) {
  const post = deps.post ?? postJson;
  return async function deliverPush(input: DeliverPushInput): Promise<PushOutcome> {
    const context = Context.current();
    const { vapid } = deps.push;
    if (!vapid) throw new PushRejectedError('Web Push is not enabled on this worker (PUSH_ENABLED and the VAPID keys)');
    const jobId = input.message.data.jobId;
    const record = await deps.subscriptions.read(input.tenantId, input.target, jobId);
    // Unsubscribed, or removed after a 404/410 on an earlier event: nobody to tell.
    if (!record) return { outcome: 'gone' };
    const endpoint = checkPushEndpoint(record.endpoint, deps.policy, deps.push.allowLoopbackHttp);
    if (!endpoint.ok) throw new PushRejectedError(`push endpoint refused: it ${endpoint.reason}`);

    const message: PushMessage = { ...input.message, scope: input.target.scope };
    const request = generateRequestDetails({ endpoint: record.endpoint, keys: record.keys }, JSON.stringify(message), {
      vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey.reveal() },
      TTL: Math.floor(deps.push.ttlMs / 1000),
      contentEncoding: 'aes128gcm',
      // A new review task should wake a device; a job's end can wait for it to be awake.
      urgency: input.target.scope === 'review_queue' ? 'high' : 'normal',
    });
    // postJson sets the length of what it sends; web-push's own Content-Length would be a second one.
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'content-length').map(([name, value]) => [name, String(value)]),
    );
    let answer: PostJsonAnswer;
    try {
      answer = await post(endpoint.url, {
        headers,
        body: request.body,
        policy: endpoint.policy,
        signal: AbortSignal.any([context.cancellationSignal, AbortSignal.timeout(PUSH_SERVICE_TIMEOUT_MS)]),
      });
    } catch (error) {
      if (error instanceof NonPublicCallbackAddressError) throw new PushRejectedError(`push endpoint refused: ${error.message}`);
      throw new PushDeliveryFailedError(`push service unreachable: ${error instanceof Error ? error.message : String(error)}`, {
        retryAfterMs: nextDeliveryDelayMs(context.info.attempt),
      });
    }
    const { status } = answer;
    // RFC 8030 §7.3: the subscription expired or was unsubscribed; it never comes back, so it is forgotten.
    if (status === 404 || status === 410) {
      await deps.subscriptions.remove(input.tenantId, input.target, jobId);
      return { outcome: 'gone' };
    }
    if (status >= 200 && status < 300) {
      // A finished job has nothing more to say: its subscriptions go, so they do not count against the tenant's cap.
      if (input.target.scope === 'job' && isTerminal(input.message.data.status)) await deps.subscriptions.remove(input.tenantId, input.target, jobId);
      return { outcome: 'delivered', status };
    }
    if (status === 429 || status >= 500) {
      throw new PushDeliveryFailedError(`the push service answered ${status}`, {
        retryAfterMs: nextDeliveryDelayMs(context.info.attempt, answer.retryAfter),
      });
    }
    // 400 malformed, 401/403 our VAPID JWT refused, 413 too large: the same request fails the same way again.
    throw new PushRejectedError(`the push service refused the message: ${status}`);
  };
}
