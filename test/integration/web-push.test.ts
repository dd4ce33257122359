import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { PushMessage, PushSubscriptionList, PushSubscriptionView } from '../../common/api-contract/push';
import { startPushServiceStandIn, type PushServiceStandIn, type StandInSubscription } from '../../local/push-service/push-service';
import { acme, apiUrl, demo, getJob, review, submit, waitForJob } from '../support/api-client';
import { sampleWith } from '../support/samples';

interface Answer<T> {
  status: number;
  body: T & { error?: { code: string; message: string; details?: Record<string, unknown> } };
}

async function pushApi<T>(method: string, path: string, key: string | undefined, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(`${apiUrl()}/push${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (response.status === 204 ? {} : await response.json()) as Answer<T>['body'] };
}

const subscribe = (key: string, body: unknown) => pushApi<PushSubscriptionView>('POST', '/subscriptions', key, body);
const listed = async (key: string) => (await pushApi<PushSubscriptionList>('GET', '/subscriptions', key)).body.subscriptions.map((s) => s.id);

/** Polls until `check` finds what it waits for, or fails the test naming it. */
async function eventually<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`never: ${what}`);
}

const pushesOf = (service: PushServiceStandIn, id: string) => service.received(id).map((push) => push.payload as PushMessage);

describe('Web Push (POST /push/subscriptions, pushes through the local push-service stand-in)', () => {
  let service: PushServiceStandIn;
  let publicKey: string;
  beforeAll(async () => {
    service = await startPushServiceStandIn();
    const key = await pushApi<{ publicKey: string }>('GET', '/vapid-public-key', undefined);
    assert.equal(key.status, 200);
    publicKey = key.body.publicKey;
  });
  afterAll(async () => service.close());

  test('when a job waits for review and is then rejected, then the queue and the job subscribers each decrypt a push naming it, numbered like its SSE events', async () => {
    const queue = service.subscribe(publicKey);
    const queueSubscription = await subscribe(demo.reviewerToken, { ...queue.subscription, reviewQueue: true });
    assert.equal(queueSubscription.status, 201, JSON.stringify(queueSubscription.body));

    const sample = await sampleWith('awaiting_review');
    const jobId = (await submit(sample.bytes, { fileName: sample.fileName })).body.jobId as string;
    const follower = service.subscribe(publicKey);
    const jobSubscription = await subscribe(demo.apiKey, { ...follower.subscription, jobId });
    assert.equal(jobSubscription.status, 201, JSON.stringify(jobSubscription.body));
    assert.equal(jobSubscription.body.scope, 'job');

    await waitForJob(jobId, ['awaiting_review']);
    const queued = await eventually('the queue subscriber heard of the review task', () => pushesOf(service, queue.id).find((push) => push.data.jobId === jobId));
    assert.equal(queued.scope, 'review_queue');
    assert.equal(queued.data.status, 'awaiting_review');
    assert.equal(queued.jobType, 'invoice');
    assert.equal(queued.id, queued.data.seq);

    const rejected = await review(jobId, { decision: 'reject', reason: 'not ours' });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    await waitForJob(jobId, ['rejected']);
    const ended = await eventually('the job subscriber heard that it ended', () => pushesOf(service, follower.id).find((push) => push.data.status === 'rejected'));
    assert.equal(ended.scope, 'job');
    assert.equal(ended.data.jobId, jobId);
    assert.ok(!('result' in ended.data), 'a push never carries the result');

    // The id is the SSE event id of that status: the job's own events say which seq `rejected` has.
    const events = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/events`, { headers: { authorization: `Bearer ${demo.apiKey}` } }).then((r) => r.text());
    const sseIds = [...events.matchAll(/id: (\d+)\nevent: status\ndata: (.*)\n/g)]
      .filter((match) => (JSON.parse(match[2] as string) as { status: string }).status === 'rejected')
      .map((match) => Number(match[1]));
    assert.deepEqual(sseIds, [ended.id]);

    // A finished job's subscriptions go; the queue's stays.
    await eventually('the ended job’s subscription was removed', async () => ((await listed(demo.apiKey)).includes(jobSubscription.body.id) ? undefined : true));
    assert.ok((await listed(demo.apiKey)).includes(queueSubscription.body.id));
    assert.equal((await getJob(jobId)).body.status, 'rejected');
  });

  test('when the push service answers 410 Gone, then the subscription is removed', async () => {
    const revoked = service.subscribe(publicKey);
    const registered = await subscribe(demo.apiKey, { ...revoked.subscription, reviewQueue: true });
    assert.equal(registered.status, 201);
    service.markGone(revoked.id);
    const sample = await sampleWith('awaiting_review');
    const jobId = (await submit(sample.bytes, { fileName: sample.fileName })).body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    await eventually('the gone subscription was removed', async () => ((await listed(demo.apiKey)).includes(registered.body.id) ? undefined : true));
    assert.deepEqual(service.refused(revoked.id).map((refusal) => refusal.status), [410]);
    assert.deepEqual(service.received(revoked.id), []);
  });

  test('when another tenant lists, deletes or subscribes to a job of this tenant, then it sees nothing and is answered 404', async () => {
    const mine = service.subscribe(publicKey);
    const registered = await subscribe(demo.apiKey, { ...mine.subscription, reviewQueue: true });
    assert.equal(registered.status, 201);
    assert.ok(!(await listed(acme.apiKey)).includes(registered.body.id));
    const foreignDelete = await pushApi('DELETE', `/subscriptions/${registered.body.id}`, acme.apiKey);
    assert.equal(foreignDelete.status, 404);
    assert.ok((await listed(demo.apiKey)).includes(registered.body.id), 'still there for its own tenant');

    const sample = await sampleWith('awaiting_review');
    const demoJob = (await submit(sample.bytes, { fileName: sample.fileName })).body.jobId as string;
    const foreignJob = await subscribe(acme.apiKey, { ...service.subscribe(publicKey).subscription, jobId: demoJob });
    assert.equal(foreignJob.status, 404);
    assert.equal(foreignJob.body.error?.code, 'not_found');

    assert.equal((await pushApi('DELETE', `/subscriptions/${registered.body.id}`, demo.apiKey)).status, 204);
    assert.ok(!(await listed(demo.apiKey)).includes(registered.body.id));
  });

  test('when a subscription is malformed, then it is refused with 400 naming the field', async () => {
    const { subscription } = service.subscribe(publicKey);
    const refusals: Array<[string, StandInSubscription & Record<string, unknown>, string]> = [
      ['a plain-http endpoint off loopback', { ...subscription, endpoint: 'http://push.example.com/x', reviewQueue: true }, 'endpoint'],
      ['a short p256dh', { ...subscription, keys: { ...subscription.keys, p256dh: subscription.keys.p256dh.slice(0, 40) }, reviewQueue: true }, 'keys'],
      ['an auth secret of 8 bytes', { ...subscription, keys: { ...subscription.keys, auth: 'AAAAAAAAAAA' }, reviewQueue: true }, 'keys'],
      ['both a job and the queue', { ...subscription, jobId: 'invoice:demo:x', reviewQueue: true }, 'jobId'],
      ['neither a job nor the queue', { ...subscription }, 'jobId'],
    ];
    for (const [what, body, field] of refusals) {
      const answer = await subscribe(demo.apiKey, body);
      assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error?.code, 'invalid_request', what);
      assert.equal(answer.body.error?.details?.field, field, what);
    }
    const { keys: _keys, ...keyless } = subscription;
    assert.equal((await subscribe(demo.apiKey, { ...keyless, reviewQueue: true })).status, 400);
    assert.equal((await pushApi('POST', '/subscriptions', undefined, { ...subscription, reviewQueue: true })).status, 401);
  });
});
