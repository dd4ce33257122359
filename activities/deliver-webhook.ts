import { createHmac } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { WebhookDeliveryFailedError, WebhookRejectedError } from '../common/errors';
import type { DeliverWebhookInput } from '../common/webhooks';
import type { Tenant } from '../lib/config';

/** Standard Webhooks signature: base64 HMAC-SHA256 over `${id}.${timestamp}.${body}` with the tenant's secret. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export function createDeliverWebhook(deps: { tenants: Tenant[]; fetch?: typeof fetch; now?: () => number }) {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  return async function deliverWebhook(input: DeliverWebhookInput): Promise<{ status: number; attempt: number }> {
    const context = Context.current();
    const tenant = deps.tenants.find((t) => t.id === input.tenantId);
    if (!tenant) throw new WebhookRejectedError(`tenant ${input.tenantId} is not configured on this worker`);
    const body = JSON.stringify({ type: input.event.type, timestamp: input.event.timestamp, data: input.event.data });
    // Signed at send time, as the spec asks: receivers refuse timestamps that are too old.
    const timestamp = Math.floor(now() / 1000);
    let response: Response;
    try {
      response = await doFetch(input.callbackUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': input.event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(tenant.webhookSecret.reveal(), input.event.id, timestamp, body),
          'user-agent': 'Slowlane-Webhooks/1',
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([context.cancellationSignal, AbortSignal.timeout(15_000)]),
      });
    } catch (error) {
      throw new WebhookDeliveryFailedError(`callback unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { status: response.status, attempt: context.info.attempt };
    if (response.status === 410) throw new WebhookRejectedError('the receiver answered 410 Gone: it does not want these events');
    throw new WebhookDeliveryFailedError(`the receiver answered ${response.status}`);
  };
}
