import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createDeliverWebhook, nextDeliveryDelayMs } from '../../activities/deliver-webhook';
import { postJson } from '../../activities/post-json';
import { WebhookDeliveryFailedError, WebhookRejectedError } from '../../common/errors';
import type { DeliverWebhookInput } from '../../common/webhooks';
import { NonPublicCallbackAddressError } from '../../lib/callback-url';
import { Secret } from '../../lib/secret';
import { TEST_SECRETS } from '../support/test-credentials';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const tenant = TEST_SECRETS.tenants[0] as (typeof TEST_SECRETS.tenants)[number];
const tenants = TEST_SECRETS.tenants.map((t) => ({
  id: t.id,
  apiKey: new Secret(t.apiKey),
  reviewers: [],
  webhookSecret: new Secret(t.webhookSecret),
}));

function eventFor(callbackUrl: string, id = 'evt_0123456789ab_7'): DeliverWebhookInput {
  return {
    tenantId: tenant.id,
    callbackUrl,
    event: {
      id,
      type: 'job.posted',
      timestamp: '2026-12-02T10:00:00.000Z',
      data: { jobId: `invoice:${tenant.id}:k1`, tenantId: tenant.id, status: 'posted', ledgerEntryId: 'le_1' },
    },
  };
}

/** Failed attempts are what some tests expect; the SDK's warning about each would only be noise here. */
const activityEnv = (): MockActivityEnvironment => new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });

const headersOf = (delivery: { headers: Record<string, string | string[] | undefined> }) => ({
  'webhook-id': String(delivery.headers['webhook-id']),
  'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
  'webhook-signature': String(delivery.headers['webhook-signature']),
});

describe('webhook delivery (Standard Webhooks)', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => receiver.close());

  test('when a webhook is delivered, then the standardwebhooks library verifies its signature with the tenant secret', async () => {
    const deliver = createDeliverWebhook({ tenants, policy: { allowPrivate: true, requireHttps: false } });
    const input = eventFor(receiver.url, 'evt_sig_1');
    const result = (await activityEnv().run(deliver, input)) as Awaited<ReturnType<typeof deliver>>;
    assert.equal(result.status, 204);

    const delivery = receiver.deliveries.find((d) => d.id === 'evt_sig_1');
    assert.ok(delivery, 'the receiver got the event');
    const verified = new Webhook(tenant.webhookSecret).verify(delivery.body, headersOf(delivery)) as Record<string, unknown>;
    assert.equal(verified.type, 'job.posted');
    assert.deepEqual(verified.data, input.event.data);
    assert.equal(delivery.headers['content-type'], 'application/json');
  });

  test('when the body or the secret differs, then the same library refuses the signature', async () => {
    const deliver = createDeliverWebhook({ tenants, policy: { allowPrivate: true, requireHttps: false } });
    await activityEnv().run(deliver, eventFor(receiver.url, 'evt_sig_2'));
    const delivery = receiver.deliveries.find((d) => d.id === 'evt_sig_2');
    assert.ok(delivery);
    assert.throws(
      () => new Webhook(tenant.webhookSecret).verify(delivery.body.replace('le_1', 'le_2'), headersOf(delivery)),
      WebhookVerificationError,
    );
    const otherSecret = (TEST_SECRETS.tenants[1] as (typeof TEST_SECRETS.tenants)[number]).webhookSecret;
    assert.throws(() => new Webhook(otherSecret).verify(delivery.body, headersOf(delivery)), WebhookVerificationError);
  });

  test('when the receiver answers 500, then the failure is retryable; 410 is final', async () => {
    const failing = await startWebhookReceiver({ failFirst: 1 });
    try {
      const deliver = createDeliverWebhook({ tenants, policy: { allowPrivate: true, requireHttps: false } });
      await assert.rejects(activityEnv().run(deliver, eventFor(failing.url)), WebhookDeliveryFailedError);
    } finally {
      await failing.close();
    }
    const gone = createDeliverWebhook({ tenants, policy: { allowPrivate: true, requireHttps: false }, post: () => Promise.resolve({ status: 410 }) });
    await assert.rejects(activityEnv().run(gone, eventFor(receiver.url)), WebhookRejectedError);
  });

  test('when deliveries keep failing, then the wait grows from seconds to half an hour and a receiver Retry-After wins', async () => {
    const highest = () => 1;
    const waits = [1, 2, 3, 6, 10, 20].map((attempt) => nextDeliveryDelayMs(attempt, undefined, highest));
    assert.deepEqual(waits, [...waits].sort((a, b) => a - b), 'never shorter than the attempt before');
    assert.ok((waits[0] ?? 0) <= 5_000 && (waits[0] ?? 0) >= 2_500, String(waits[0]));
    assert.equal(waits.at(-1), 30 * 60_000);
    assert.equal(nextDeliveryDelayMs(1, '120'), 120_000);
    assert.equal(nextDeliveryDelayMs(1, '999999'), 30 * 60_000, 'a receiver cannot park its events for days');

    const busy = createDeliverWebhook({ tenants, policy: { allowPrivate: true, requireHttps: false }, post: () => Promise.resolve({ status: 503, retryAfter: '42' }) });
    await assert.rejects(activityEnv().run(busy, eventFor(receiver.url)), (error: unknown) => {
      assert.ok(error instanceof WebhookDeliveryFailedError);
      assert.equal(error.retryAfterMs, 42_000);
      return true;
    });
  });

  test('when the deployment refuses private targets, then a loopback callback is rejected for good and never called', async () => {
    const before = receiver.deliveries.length;
    const deliver = createDeliverWebhook({ tenants, policy: { allowPrivate: false, requireHttps: false } });
    await assert.rejects(activityEnv().run(deliver, eventFor(receiver.url)), (error: unknown) => {
      assert.ok(error instanceof WebhookRejectedError);
      assert.match(error.message, /127\.0\.0\.1/);
      return true;
    });
    assert.equal(receiver.deliveries.length, before);
  });

  test('when production meets an http callback at delivery (a job submitted before https was required), then it is rejected for good and never called', async () => {
    const before = receiver.deliveries.length;
    const deliver = createDeliverWebhook({ tenants, policy: { allowPrivate: true, requireHttps: true } });
    await assert.rejects(activityEnv().run(deliver, eventFor(receiver.url)), (error: unknown) => {
      assert.ok(error instanceof WebhookRejectedError);
      assert.match(error.message, /must use https/);
      return true;
    });
    assert.equal(receiver.deliveries.length, before);
  });

  test('when a name resolves to a private address at delivery, then the connection is refused before anything is sent', async () => {
    const before = receiver.deliveries.length;
    const url = new URL(receiver.url.replace('127.0.0.1', 'localhost'));
    await assert.rejects(
      postJson(url, { headers: {}, body: '{}', policy: { allowPrivate: false, requireHttps: false }, signal: AbortSignal.timeout(5_000) }),
      NonPublicCallbackAddressError,
    );
    assert.equal(receiver.deliveries.length, before);
    assert.equal((await postJson(url, { headers: {}, body: '{}', policy: { allowPrivate: true, requireHttps: false }, signal: AbortSignal.timeout(5_000) })).status, 204);
  });
});
