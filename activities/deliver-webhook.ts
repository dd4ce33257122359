import { Context } from '@temporalio/activity';
import { Webhook } from 'standardwebhooks';
import { WebhookDeliveryFailedError, WebhookRejectedError } from '../common/errors';
import type { DeliverWebhookInput } from '../common/webhooks';
import { checkCallbackUrl, type CallbackUrlPolicy, NonPublicCallbackAddressError } from '../lib/callback-url';
import type { Tenant } from '../lib/config';
import { jitteredBackoffMs } from '../lib/failures';
import { postJson, type PostJson, type PostJsonAnswer } from './post-json';

/** A receiver gets this long to answer; a slow one is retried later rather than holding a worker slot. */
const RECEIVER_TIMEOUT_MS = 15_000;
/**
 * Retries back off from 5 s to 30 min (the delivery workflow gives up after 24 h): a receiver down for a
 * maintenance window gets its events soon after it is back, without being hammered meanwhile.
 */
const RETRY_BASE_MS = 5_000;
const RETRY_CAP_MS = 30 * 60_000;

/** When to try again: the receiver's own Retry-After (seconds, capped) when it sent one, else our backoff. */
export function nextDeliveryDelayMs(attempt: number, retryAfter?: string, random: () => number = Math.random): number {
  const hinted = Number(retryAfter);
  if (retryAfter !== undefined && Number.isFinite(hinted) && hinted > 0) return Math.min(hinted * 1000, RETRY_CAP_MS);
  return jitteredBackoffMs(attempt, random, RETRY_BASE_MS, RETRY_CAP_MS);
}

export interface DeliverWebhookDeps {
  tenants: Tenant[];
  policy: CallbackUrlPolicy;
  post?: PostJson;
  now?: () => number;
}

export function createDeliverWebhook(deps: DeliverWebhookDeps) {
  const post = deps.post ?? postJson;
  const now = deps.now ?? Date.now;
  return async function deliverWebhook(input: DeliverWebhookInput): Promise<{ status: number; attempt: number }> {
    const context = Context.current();
    const tenant = deps.tenants.find((t) => t.id === input.tenantId);
    if (!tenant) throw new WebhookRejectedError(`tenant ${input.tenantId} is not configured on this worker`);
    // The URL was checked at submit; the policy may have changed since, and DNS is checked on the connection.
    const checked = checkCallbackUrl(input.callbackUrl, deps.policy);
    if (!checked.ok) throw new WebhookRejectedError(`callback URL refused: it ${checked.reason}`);

    const body = JSON.stringify({ type: input.event.type, timestamp: input.event.timestamp, data: input.event.data });
    // Signed at send time, as the spec asks: receivers refuse timestamps that are too old.
    const signedAt = new Date(now());
    let answer: PostJsonAnswer;
    try {
      answer = await post(checked.url, {
        headers: {
          'content-type': 'application/json',
          'webhook-id': input.event.id,
          'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
          'webhook-signature': new Webhook(tenant.webhookSecret.reveal()).sign(input.event.id, signedAt, body),
          'user-agent': 'Slowlane-Webhooks/1',
        },
        body,
        policy: deps.policy,
        signal: AbortSignal.any([context.cancellationSignal, AbortSignal.timeout(RECEIVER_TIMEOUT_MS)]),
      });
    } catch (error) {
      if (error instanceof NonPublicCallbackAddressError) throw new WebhookRejectedError(`callback URL refused: ${error.message}`);
      throw new WebhookDeliveryFailedError(`callback unreachable: ${error instanceof Error ? error.message : String(error)}`, {
        retryAfterMs: nextDeliveryDelayMs(context.info.attempt),
      });
    }
    const { status } = answer;
    if (status >= 200 && status < 300) return { status, attempt: context.info.attempt };
    if (status === 410) throw new WebhookRejectedError('the receiver answered 410 Gone: it does not want these events');
    throw new WebhookDeliveryFailedError(`the receiver answered ${status}`, {
      retryAfterMs: nextDeliveryDelayMs(context.info.attempt, answer.retryAfter),
    });
  };
}
