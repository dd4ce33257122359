import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { generateVAPIDKeys } from 'web-push';
import { createDeliverPush } from '../../activities/push/deliver-push';
import { PushDeliveryFailedError, PushRejectedError } from '../../common/errors';
import type { DeliverPushInput, PushScope } from '../../common/push';
import { createPushSubscriptions, pushSubscriptionId } from '../../lib/push/push-subscriptions';
import { Secret } from '../../lib/secret';
import { startPushServiceStandIn, type PushServiceStandIn } from '../../local/push-service/push-service';
import { memoryStore } from '../support/memory-store';

const vapidKeys = generateVAPIDKeys();
const vapid = { publicKey: vapidKeys.publicKey, privateKey: new Secret(vapidKeys.privateKey), subject: 'mailto:ops@slowlane.example' };
const push = { vapid, ttlMs: 3_600_000, allowLoopbackHttp: true };
const policy = { allowPrivate: false, requireHttps: true };
const jobId = 'invoice:demo:push-1';

/** Failed attempts are what some tests expect; the SDK's warning about each would only be noise here. */
const activityEnv = (): MockActivityEnvironment => new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });

function pushFor(scope: PushScope, id: string, status: DeliverPushInput['message']['data']['status'] = 'posted'): DeliverPushInput {
  return {
    tenantId: 'demo',
    target: { id, scope },
    message: { event: 'status', id: 7, jobType: 'invoice', data: { jobId, seq: 7, status, at: '2026-12-06T10:00:00.000Z' } },
  };
}

describe('Web Push delivery (RFC 8291 aes128gcm, RFC 8292 VAPID)', () => {
  let service: PushServiceStandIn;
  beforeAll(async () => {
    service = await startPushServiceStandIn();
  });
  afterAll(async () => service.close());

  /** A stored subscription of the stand-in's, made for `applicationServerKey`. */
  async function subscribed(scope: PushScope, applicationServerKey = vapid.publicKey) {
    const store = memoryStore();
    const subscriptions = createPushSubscriptions(store);
    const { id: standInId, subscription } = service.subscribe(applicationServerKey);
    const id = pushSubscriptionId('demo', scope, scope === 'job' ? jobId : undefined, subscription.endpoint);
    await subscriptions.put({
      id,
      tenantId: 'demo',
      scope,
      ...(scope === 'job' ? { jobId } : {}),
      endpoint: subscription.endpoint,
      keys: subscription.keys,
      createdAt: '2026-12-06T09:00:00.000Z',
      createdBy: 'api-key',
    });
    return { store, subscriptions, standInId, id, deliver: createDeliverPush({ subscriptions, push, policy }) };
  }

  test('when a job event is pushed, then the subscriber decrypts the status event with its own keys and the VAPID JWT verifies', async () => {
    const { deliver, standInId, id } = await subscribed('review_queue');
    const outcome = await activityEnv().run(deliver, pushFor('review_queue', id, 'awaiting_review'));
    assert.deepEqual(outcome, { outcome: 'delivered', status: 201 });
    const [received, ...more] = service.received(standInId);
    assert.equal(more.length, 0);
    assert.deepEqual(received?.payload, {
      event: 'status',
      id: 7,
      scope: 'review_queue',
      jobType: 'invoice',
      data: { jobId, seq: 7, status: 'awaiting_review', at: '2026-12-06T10:00:00.000Z' },
    });
    assert.equal(received?.subject, 'mailto:ops@slowlane.example');
    assert.equal(received?.ttl, 3600);
    assert.equal(received?.urgency, 'high');
  });

  test('when a job subscription hears the job finished, then it is delivered and removed: the job has nothing more to say', async () => {
    const { deliver, store, id } = await subscribed('job');
    assert.deepEqual(await activityEnv().run(deliver, pushFor('job', id, 'posted')), { outcome: 'delivered', status: 201 });
    assert.deepEqual([...store.objects.keys()], []);
  });

  test('when the push service answers 410 Gone, then the subscription is removed and the push ends as gone', async () => {
    const { deliver, store, standInId, id } = await subscribed('review_queue');
    service.markGone(standInId);
    assert.deepEqual(await activityEnv().run(deliver, pushFor('review_queue', id, 'awaiting_review')), { outcome: 'gone' });
    assert.deepEqual([...store.objects.keys()], []);
    assert.deepEqual(service.refused(standInId).map((refusal) => refusal.status), [410]);
  });

  test('when the subscription was made for another application server key, then the 403 is a non-retryable PushRejectedError', async () => {
    const { deliver, store, standInId, id } = await subscribed('review_queue', generateVAPIDKeys().publicKey);
    await assert.rejects(activityEnv().run(deliver, pushFor('review_queue', id, 'awaiting_review')), (error: unknown) => error instanceof PushRejectedError && /403/.test(error.message));
    assert.equal(store.objects.size, 1, 'a refused push keeps the subscription');
    assert.match(service.refused(standInId)[0]?.reason ?? '', /not the key this subscription was made with/);
  });

  test('when the push service cannot be reached, then a retryable PushDeliveryFailedError says when to try again', async () => {
    const { subscriptions, id } = await subscribed('review_queue');
    const down = createDeliverPush({ subscriptions, push, policy, post: () => Promise.reject(new Error('connect ECONNREFUSED')) });
    await assert.rejects(
      activityEnv().run(down, pushFor('review_queue', id, 'awaiting_review')),
      (error: unknown) => error instanceof PushDeliveryFailedError && error.retryable && (error.retryAfterMs ?? 0) > 0,
    );
  });

  test('when the push service answers 503 with Retry-After, then the retry waits as long as it asked', async () => {
    const { subscriptions, id } = await subscribed('review_queue');
    const busy = createDeliverPush({ subscriptions, push, policy, post: async () => ({ status: 503, retryAfter: '42' }) });
    await assert.rejects(activityEnv().run(busy, pushFor('review_queue', id, 'awaiting_review')), (error: unknown) => error instanceof PushDeliveryFailedError && error.retryAfterMs === 42_000);
  });
});
