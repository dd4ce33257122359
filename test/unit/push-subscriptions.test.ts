import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { generateVAPIDKeys } from 'web-push';
import { ApiError } from '../../api/api-error';
import type { Caller } from '../../api/auth';
import { createPushService } from '../../api/push/push-service';
import { localTestConfig } from '../support/test-credentials';
import { createPushSubscriptions } from '../../lib/push/push-subscriptions';
import { memoryStore } from '../support/memory-store';

const config = localTestConfig({ PUSH_MAX_SUBSCRIPTIONS_PER_TENANT: '2' });
const callerOf = (tenantId: string): Caller => {
  const tenant = config.tenants.find((candidate) => candidate.id === tenantId);
  assert.ok(tenant);
  return { tenant, role: 'api', identity: 'api-key', via: 'api-key' };
};
/** A browser's subscription JSON, its endpoint on the stand-in's loopback http, keys that are real. */
const browser = (n: number) => ({
  endpoint: `http://127.0.0.1:8790/push/${n}`,
  keys: { p256dh: generateVAPIDKeys().publicKey, auth: Buffer.alloc(16, n).toString('base64url') },
});

function service() {
  const store = memoryStore();
  const jobs = {
    get: async (tenantId: string, jobId: string) => {
      if (!jobId.startsWith(`invoice:${tenantId}:`)) throw new ApiError(404, 'not_found', `job ${jobId} was not found`);
      return {} as never;
    },
  };
  return { store, push: createPushService({ subscriptions: createPushSubscriptions(store), jobs, config }) };
}

describe('push subscriptions (api/push/push-service.ts over an in-memory S3)', () => {
  test('when a browser registers the same endpoint for the queue again, then it is renewed with its new keys, not added', async () => {
    const { push, store } = service();
    const first = await push.subscribe(callerOf('demo'), { ...browser(1), reviewQueue: true });
    const again = await push.subscribe(callerOf('demo'), { ...browser(1), keys: browser(9).keys, reviewQueue: true });
    assert.equal(first.created, true);
    assert.equal(again.created, false);
    assert.equal(again.subscription.id, first.subscription.id);
    assert.equal(store.objects.size, 1);
    const stored = JSON.parse([...store.objects.values()][0]?.toString('utf8') ?? '{}') as { keys: { auth: string } };
    assert.equal(stored.keys.auth, browser(9).keys.auth);
  });

  test('when a tenant holds its cap, then a new subscription is a 409 too_many_subscriptions, and another tenant is not counted', async () => {
    const { push } = service();
    await push.subscribe(callerOf('demo'), { ...browser(1), reviewQueue: true });
    await push.subscribe(callerOf('demo'), { ...browser(2), jobId: 'invoice:demo:a' });
    await assert.rejects(push.subscribe(callerOf('demo'), { ...browser(3), reviewQueue: true }), (error: unknown) => {
      return error instanceof ApiError && error.status === 409 && error.code === 'too_many_subscriptions' && error.details?.limit === 2;
    });
    // Renewing one it holds is no new subscription.
    assert.equal((await push.subscribe(callerOf('demo'), { ...browser(1), reviewQueue: true })).created, false);
    assert.equal((await push.subscribe(callerOf('acme'), { ...browser(3), reviewQueue: true })).created, true);
  });

  test('when a tenant lists or removes, then only its own subscriptions exist for it', async () => {
    const { push } = service();
    const { subscription } = await push.subscribe(callerOf('demo'), { ...browser(1), jobId: 'invoice:demo:a' });
    assert.deepEqual((await push.list('acme')).subscriptions, []);
    await assert.rejects(push.remove('acme', subscription.id), (error: unknown) => error instanceof ApiError && error.status === 404);
    assert.deepEqual((await push.list('demo')).subscriptions.map((s) => [s.id, s.scope, s.jobId, s.endpointOrigin]), [
      [subscription.id, 'job', 'invoice:demo:a', 'http://127.0.0.1:8790'],
    ]);
    await push.remove('demo', subscription.id);
    assert.deepEqual((await push.list('demo')).subscriptions, []);
  });

  test('when a subscription names another tenant’s job, then it is the 404 of a missing job and nothing is stored', async () => {
    const { push, store } = service();
    await assert.rejects(push.subscribe(callerOf('acme'), { ...browser(1), jobId: 'invoice:demo:a' }), (error: unknown) => error instanceof ApiError && error.status === 404);
    assert.equal(store.objects.size, 0);
  });
});
