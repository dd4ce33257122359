import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { SocketServerMessage } from '../../common/api-contract/job-socket';
import { acme, apiUrl, demo, submit, waitForJob } from '../support/api-client';
import { type ExtraApi, startExtraApi } from '../support/extra-api';
import { isEvent, openSocket, openSocketAt, refusedStatus, socketToken } from '../support/job-socket-client';
import { sampleWith } from '../support/samples';
import { readSse } from '../support/sse';

type EventMessage = Extract<SocketServerMessage, { type: 'event' }>;

/** Every numbered event of a finished job as its SSE stream sends it: id and data. */
async function sseEvents(jobId: string): Promise<Array<{ id: number; event: string; data: unknown }>> {
  const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/events`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
  assert.equal(response.status, 200);
  const events: Array<{ id: number; event: string; data: unknown }> = [];
  for await (const event of readSse(response.body as ReadableStream<Uint8Array>)) {
    if (event.id !== undefined) events.push({ id: Number(event.id), event: event.event, data: JSON.parse(event.data) });
  }
  return events;
}

const numbered = (messages: SocketServerMessage[], jobId: string) =>
  messages.filter(isEvent).flatMap((message) => (message.event !== 'end' && message.data.jobId === jobId && message.id !== undefined ? [{ id: message.id, event: message.event, data: message.data }] : []));

const endOf = (jobId: string) => (message: SocketServerMessage): message is EventMessage => isEvent(message) && message.event === 'end' && message.data.jobId === jobId;

describe('the WebSocket channel for job events', () => {
  let posted: string;
  let secondPosted: string;
  let reviewed: string;
  let acmeReviewed: string;

  beforeAll(async () => {
    const text = await sampleWith('posted', false);
    const pdf = await sampleWith('awaiting_review');
    posted = (await submit(text.bytes, { fileName: text.fileName })).body.jobId as string;
    secondPosted = (await submit(text.bytes, { fileName: text.fileName })).body.jobId as string;
    reviewed = (await submit(pdf.bytes, { fileName: pdf.fileName })).body.jobId as string;
    acmeReviewed = (await submit(pdf.bytes, { fileName: pdf.fileName, apiKey: acme.apiKey })).body.jobId as string;
    await Promise.all([
      waitForJob(posted, ['posted']),
      waitForJob(secondPosted, ['posted']),
      waitForJob(reviewed, ['awaiting_review']),
      waitForJob(acmeReviewed, ['awaiting_review'], 60_000, acme.apiKey),
    ]);
  }, 180_000);

  test('when a client subscribes to two job ids, then it gets each job’s events with the ids and data of its SSE stream, then its end', async () => {
    const socket = await openSocket(apiUrl(), demo.apiKey);
    socket.send({ type: 'subscribe', subscription: 'mine', jobIds: [posted, secondPosted] });
    await socket.next((m) => m.type === 'subscribed' && m.subscription === 'mine');
    const ends = [await socket.next(endOf(posted)), await socket.next(endOf(secondPosted))];
    socket.close();
    assert.deepEqual(ends.map((end) => end.subscription), ['mine', 'mine']);
    const sse = await sseEvents(posted);
    assert.ok(sse.length >= 2, 'the finished job has several events');
    assert.deepEqual(numbered(socket.messages, posted), sse);
    assert.deepEqual(numbered(socket.messages, secondPosted), await sseEvents(secondPosted));
  }, 60_000);

  test('when a client resumes with the last id it saw, then it gets only the events after it', async () => {
    const sse = await sseEvents(posted);
    const seen = sse[0]?.id as number;
    const socket = await openSocket(apiUrl(), demo.apiKey);
    socket.send({ type: 'subscribe', subscription: 'again', jobIds: [posted], lastEventIds: { [posted]: seen } });
    await socket.next(endOf(posted));
    socket.close();
    assert.deepEqual(numbered(socket.messages, posted), sse.filter((event) => event.id > seen));
  }, 60_000);

  test('when a reviewer subscribes to a filter on status, then the tenant’s jobs awaiting review arrive, and another tenant’s never', async () => {
    const socket = await openSocket(apiUrl(), demo.reviewerToken);
    socket.send({ type: 'subscribe', subscription: 'queue', filter: { type: 'invoice', status: 'awaiting_review' } });
    const event = await socket.next((m) => isEvent(m) && m.event === 'status' && m.data.jobId === reviewed && m.data.status === 'awaiting_review');
    assert.equal((event as EventMessage).subscription, 'queue');
    socket.close();
    const jobIds = new Set(socket.messages.filter(isEvent).map((m) => m.data.jobId));
    assert.ok(!jobIds.has(acmeReviewed), 'the other tenant’s job awaiting review never came');
    assert.ok([...jobIds].every((jobId) => jobId.startsWith('invoice:demo:')), `only demo's jobs: ${[...jobIds].join(', ')}`);
  }, 60_000);

  test('when a tenant subscribes to another tenant’s job, then it is told not_found and gets none of its events', async () => {
    const socket = await openSocket(apiUrl(), acme.apiKey);
    socket.send({ type: 'subscribe', subscription: 'peek', jobIds: [reviewed, acmeReviewed] });
    const refused = await socket.next((m) => m.type === 'error' && m.code === 'not_found');
    assert.deepEqual(refused, { type: 'error', code: 'not_found', message: `job ${reviewed} was not found`, subscription: 'peek', jobId: reviewed });
    // Its own job's events come through the same subscription.
    await socket.next((m) => isEvent(m) && m.data.jobId === acmeReviewed);
    socket.close();
    assert.ok(!socket.messages.some((m) => isEvent(m) && m.data.jobId === reviewed), 'no event of the other tenant’s job');
  }, 60_000);

  test('when the upgrade carries no token, a forged one, the API key or a used one, then it is refused with 401 before any socket opens', async () => {
    const base = `${apiUrl().replace(/^http/, 'ws')}/events/socket`;
    assert.equal(await refusedStatus(base), 401);
    assert.equal(await refusedStatus(`${base}?token=not-a-token`), 401);
    assert.equal(await refusedStatus(`${base}?token=${encodeURIComponent(demo.apiKey)}`), 401);
    const { token, url } = await socketToken(apiUrl(), demo.apiKey);
    const [claims, tag] = token.split('.') as [string, string];
    const forged = Buffer.from(Buffer.from(claims, 'base64url').toString('utf8').replace('"demo"', '"acme"')).toString('base64url');
    assert.equal(await refusedStatus(`${base}?token=${forged}.${tag}`), 401);
    const once = await openSocketAt(url);
    once.close();
    assert.equal(await refusedStatus(url), 401, 'a token opens one socket only');
  }, 30_000);

  test('when a client sends malformed or hostile messages, then each is answered with an error or a documented close, and the server stays up', async () => {
    const socket = await openSocket(apiUrl(), demo.apiKey);
    socket.send('{not json');
    await socket.next((m) => m.type === 'error' && m.code === 'invalid_message' && m.message === 'the message is not JSON');
    socket.send({ type: 'subscribe', subscription: 'x', jobIds: [], evil: true } as never);
    await socket.next((m) => m.type === 'error' && m.code === 'invalid_message' && m.message !== 'the message is not JSON');
    socket.send({ type: 'unsubscribe', subscription: 'never' });
    await socket.next((m) => m.type === 'error' && m.code === 'no_such_subscription');
    socket.send({ type: 'subscribe', subscription: 'twice', jobIds: [posted] });
    socket.send({ type: 'subscribe', subscription: 'twice', jobIds: [posted] });
    await socket.next((m) => m.type === 'error' && m.code === 'subscription_exists');
    socket.send({ type: 'unsubscribe', subscription: 'twice' });
    await socket.next((m) => m.type === 'unsubscribed' && m.subscription === 'twice');
    socket.send(Buffer.from([1, 2, 3]));
    assert.deepEqual(await socket.closed, { code: 1003, reason: 'messages are JSON text' });

    const big = await openSocket(apiUrl(), demo.apiKey);
    big.send(JSON.stringify({ type: 'subscribe', subscription: 'big', jobIds: ['x'.repeat(70 * 1024)] }));
    assert.equal((await big.closed).code, 1009);

    const flood = await openSocket(apiUrl(), demo.apiKey);
    for (let i = 0; i < 25; i++) flood.send('[]');
    assert.deepEqual(await flood.closed, { code: 1008, reason: 'more than 20 invalid messages' });
    assert.equal((await fetch(`${apiUrl()}/healthz`)).status, 200);
  }, 30_000);

  describe('with tight caps and a short heartbeat', () => {
    let tight: ExtraApi;
    let expiring: ExtraApi;

    beforeAll(async () => {
      [tight, expiring] = await Promise.all([
        startExtraApi('api-socket-caps', { WS_MAX_CONNECTIONS_PER_TENANT: '2', WS_MAX_SUBSCRIPTIONS_PER_TENANT: '2', WS_HEARTBEAT_INTERVAL: '200ms' }),
        startExtraApi('api-socket-expiring', { WS_TOKEN_TTL: '1ms' }),
      ]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([tight?.stop(), expiring?.stop()]);
    });

    test('when a token has expired, then the upgrade is refused with 401', async () => {
      const { url } = await socketToken(expiring.url, demo.apiKey);
      assert.equal(await refusedStatus(url), 401);
    });

    test('when a tenant opens one socket past its cap or follows more than its share, then that socket is closed with 4429 and a reason; another tenant is unaffected', async () => {
      const first = await openSocket(tight.url, demo.apiKey);
      const second = await openSocket(tight.url, demo.apiKey);
      const third = await openSocket(tight.url, demo.apiKey);
      assert.deepEqual(await third.closed, { code: 4429, reason: 'too_many_connections: this tenant already has 2 sockets open' });
      const other = await openSocket(tight.url, acme.apiKey);
      other.send({ type: 'subscribe', subscription: 'ok', jobIds: [acmeReviewed] });
      await other.next((m) => m.type === 'subscribed');
      other.close();

      // A job waiting for a person keeps its slot: it has no end to release it.
      first.send({ type: 'subscribe', subscription: 'one', jobIds: [reviewed] });
      await first.next((m) => m.type === 'subscribed');
      second.send({ type: 'subscribe', subscription: 'two', jobIds: [secondPosted, reviewed] });
      assert.deepEqual(await second.closed, { code: 4429, reason: 'too_many_subscriptions: this tenant already follows 2 jobs and filters' });
      first.close();
    }, 30_000);

    test('when a client stops answering pings, then the server drops its socket', async () => {
      const silent = await openSocket(tight.url, acme.apiKey, { autoPong: false });
      const closed = await silent.closed;
      assert.equal(closed.code, 1006, 'terminated without a close frame');
    }, 30_000);
  });
});
