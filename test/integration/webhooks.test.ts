import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { TEST_SECRETS } from '../support/test-credentials';
import { demo, ledgerEntries, review, submit, waitForJob, invoiceResult } from '../support/api-client';
import { type ExtraApi, startExtraApi } from '../support/extra-api';
import { schemaProblems } from '../support/openapi-conformance';
import type { GivenUpWebhookList, WebhookRedelivery } from '../../common/api-contract/admin';
import { admin, scrape, temporalClient, total } from '../support/operations';
import { sampleWith } from '../support/samples';
import { testEnv } from '../support/test-env';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

interface WebhookBody {
  type: string;
  timestamp: string;
  data: { jobId: string; tenantId: string; status: string; ledgerEntryId?: string };
}

/** Verifies a delivery the way a receiver would: the independent Standard Webhooks library and the tenant secret. */
function verified(delivery: ReceivedWebhook): WebhookBody {
  const body = new Webhook(demo.webhookSecret).verify(delivery.body, {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  }) as WebhookBody;
  assert.deepEqual(schemaProblems('WebhookEvent', body), [], 'the body matches WebhookEvent in the OpenAPI document');
  return body;
}

/** Ends jobs that were only submitted to check the API's answer. */
async function terminateJobs(jobIds: string[]): Promise<void> {
  const { temporalAddress, temporalNamespace } = testEnv();
  if (!temporalAddress || jobIds.length === 0) return;
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const client = new Client({ connection, namespace: temporalNamespace });
    for (const jobId of jobIds) await client.workflow.getHandle(jobId).terminate('test submission only');
  } finally {
    await connection.close();
  }
}

/**
 * Waits until the job's workflow has closed and then every webhook delivery workflow it started
 * (`webhook:<jobId>:<eventId>`, workflows/notifications.ts) has closed too: after that no attempt of any of its
 * events can still arrive. Returns the event ids those workflows deliver.
 */
async function deliveriesClosed(jobId: string, expected: number, timeoutMs = 120_000): Promise<string[]> {
  const client = await temporalClient();
  try {
    // The job starts each delivery before it goes on, so once it has closed every delivery exists.
    await client.workflow.getHandle(jobId).result();
    const prefix = `webhook:${jobId}:`;
    const query = `WorkflowType = 'deliverWebhookWorkflow' AND WorkflowId STARTS_WITH '${prefix}'`;
    const deadline = Date.now() + timeoutMs;
    let workflowIds: string[] = [];
    // Visibility lists a new workflow a moment after it starts.
    while (workflowIds.length < expected) {
      if (Date.now() > deadline) assert.fail(`only ${workflowIds.length} of ${expected} delivery workflows of ${jobId} were listed: ${workflowIds.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      workflowIds = [];
      for await (const execution of client.workflow.list({ query })) workflowIds.push(execution.workflowId);
    }
    // result() waits for the close itself (visibility may still say running) and throws if a delivery failed.
    await Promise.all(workflowIds.map((workflowId) => client.workflow.getHandle(workflowId).result()));
    return workflowIds.map((workflowId) => workflowId.slice(prefix.length)).sort();
  } finally {
    await client.connection.close();
  }
}

/** Given-up deliveries counted by every worker, summed (each worker counts the deliveries it ran). */
async function givenUpCounted(errorType: string): Promise<number> {
  const workers = Object.entries(testEnv().metricsUrls).filter(([name]) => name.startsWith('worker'));
  assert.ok(workers.length >= 1, 'the stack reports its workers\' metrics endpoints');
  const samples = (await Promise.all(workers.map(([, url]) => scrape(url)))).flat();
  return total(samples, 'slowlane_webhook_deliveries_given_up_total', { error_type: errorType });
}

const forJob = (jobId: string) => (d: ReceivedWebhook) => (JSON.parse(d.body) as WebhookBody).data.jobId === jobId;

describe('webhooks: signed deliveries to a callback URL', () => {
  let receiver: WebhookReceiver;
  let flaky: WebhookReceiver;
  let gone: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    flaky = await startWebhookReceiver({ failFirst: 2 });
    gone = await startWebhookReceiver({ goneFirst: 1 });
  });
  afterAll(async () => {
    await receiver.close();
    await flaky.close();
    await gone.close();
  });

  test('when a job with a callbackUrl is posted, then the receiver gets one job.posted that standardwebhooks verifies', async () => {
    const sample = await sampleWith('posted');
    const { status, body } = await submit(sample.bytes, { fileName: sample.fileName, fields: { type: 'invoice', callbackUrl: receiver.url } });
    assert.equal(status, 202, JSON.stringify(body));
    const jobId = body.jobId as string;
    const done = await waitForJob(jobId, ['posted', 'failed']);

    const eventIds = await deliveriesClosed(jobId, 1);
    assert.equal(eventIds.length, 1, `one event for a job that posts by itself: ${eventIds.join(', ')}`);
    const mine = receiver.deliveries.filter(forJob(jobId));
    assert.equal(mine.length, 1, `exactly one delivery, its workflow closed: ${JSON.stringify(mine.map((d) => [d.id, d.status]))}`);
    assert.equal(mine.filter((d) => verified(d).type === 'job.posted').length, 1, 'exactly one job.posted');
    const [delivery] = mine;
    assert.ok(delivery);
    assert.equal(delivery.id, eventIds[0]);
    const event = verified(delivery);
    assert.equal(event.type, 'job.posted');
    assert.equal(event.data.status, 'posted');
    assert.equal(event.data.tenantId, demo.id);
    assert.equal(event.data.ledgerEntryId, invoiceResult(done)?.ledgerEntryId);
    assert.match(String(delivery.headers['webhook-id']), /^evt_/);
  });

  test('when the receiver fails twice and then succeeds, then each event id is accepted exactly once, after three attempts', async () => {
    const sample = await sampleWith('awaiting_review');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName, fields: { type: 'invoice', callbackUrl: flaky.url } });
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    const fields = {
      invoiceNumber: 'WH-2',
      issuer: 'Webhook Supplier',
      issueDate: '2026-10-31',
      dueDate: null,
      currency: 'EUR',
      totalAmount: 99.5,
      subtotalAmount: null,
      taxAmount: null,
      lineItems: [],
    };
    assert.equal((await review(jobId, { decision: 'approve', fields })).status, 200);
    await waitForJob(jobId, ['posted']);

    // Delivery retries back off from 5 s: two failures then a success take about 15 s per event. Only once every
    // delivery workflow of the job has closed can no late duplicate still be on its way.
    const eventIds = await deliveriesClosed(jobId, 2);
    assert.equal(eventIds.length, 2, `one delivery workflow per event (awaiting_review, posted): ${eventIds.join(', ')}`);
    const mine = flaky.deliveries.filter(forJob(jobId));
    const ids = [...new Set(mine.map((d) => d.id))].sort();
    assert.deepEqual(ids, eventIds, 'the receiver saw exactly the events Temporal delivered');
    for (const id of ids) {
      assert.equal(mine.filter((d) => d.id === id && d.status >= 200 && d.status < 300).length, 1, `event ${id} accepted (2xx) exactly once`);
      const attempts = mine.filter((d) => d.id === id);
      assert.deepEqual(attempts.map((d) => d.status), [500, 500, 204], `event ${id}: failed twice, accepted once, then left alone`);
      assert.equal(new Set(attempts.map((d) => d.body)).size, 1, 'every attempt carries the same event');
      assert.ok(attempts.every((attempt) => verified(attempt)));
    }
    assert.deepEqual(mine.filter((d) => d.status < 300).map((d) => verified(d).type).sort(), ['job.awaiting_review', 'job.posted']);
    assert.equal((await ledgerEntries(jobId)).length, 1);
  });

  test('when the receiver answers 410 Gone, then the delivery is given up and counted, and an operator redelivers the same event once', async () => {
    const before = await givenUpCounted('WebhookRejectedError');
    const sample = await sampleWith('posted');
    const { status, body } = await submit(sample.bytes, { fileName: sample.fileName, fields: { type: 'invoice', callbackUrl: gone.url } });
    assert.equal(status, 202, JSON.stringify(body));
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['posted']);
    await assert.rejects(deliveriesClosed(jobId, 1), /failed/i, 'the 410 fails the delivery at once');
    // The worker's sink runs as the failing workflow task completes, a moment after the client sees the failure.
    let counted = 0;
    for (let i = 0; i < 40 && counted < before + 1; i++) {
      counted = await givenUpCounted('WebhookRejectedError');
      if (counted < before + 1) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(counted, before + 1, 'the workers count the given-up delivery');

    // Visibility lists a closed workflow a moment after it closes.
    let listed: GivenUpWebhookList['deliveries'] = [];
    for (let i = 0; i < 40 && listed.length === 0; i++) {
      const answer = await admin<GivenUpWebhookList>('GET', '/admin/webhooks/given-up?limit=1000');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      listed = answer.body.deliveries.filter((delivery) => delivery.jobId === jobId);
      if (listed.length === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(listed.length, 1, 'the operator finds the given-up delivery');
    const [given] = listed;
    assert.ok(given);
    assert.equal(gone.deliveries.filter(forJob(jobId)).map((d) => d.status).join(','), '410');

    const redelivered = await admin<WebhookRedelivery>('POST', `/admin/webhooks/${encodeURIComponent(given.deliveryId)}/redeliver`);
    assert.equal(redelivered.status, 200, JSON.stringify(redelivered.body));
    assert.equal(redelivered.body.action, 'redelivered');
    const client = await temporalClient();
    try {
      await client.workflow.getHandle(given.deliveryId, redelivered.body.runId).result();
    } finally {
      await client.connection.close();
    }
    const attempts = gone.deliveries.filter(forJob(jobId));
    assert.deepEqual(attempts.map((d) => d.status), [410, 204], 'given up once, then accepted once');
    assert.deepEqual(attempts.map((d) => d.id), [given.eventId, given.eventId], 'the same event id both times');
    assert.equal(verified(attempts[1] as ReceivedWebhook).type, 'job.posted');

    const again = await admin<{ error?: { code?: string } }>('POST', `/admin/webhooks/${encodeURIComponent(given.deliveryId)}/redeliver`);
    assert.equal(again.status, 409, 'a delivered event is not sent again');
    assert.equal(again.body.error?.code, 'not_redeliverable');
    assert.equal(await givenUpCounted('WebhookRejectedError'), before + 1, 'the redelivery was not a second give-up');
  });

  test('when the callbackUrl is not http(s) or not a URL, then submit is a 400 naming callbackUrl and no job starts', async () => {
    const sample = await sampleWith('posted');
    for (const callbackUrl of ['ftp://example.com/hook', 'not a url', 'https://user:secret@example.com/hook']) {
      const answer = await submit(sample.bytes, { fields: { type: 'invoice', callbackUrl } });
      assert.equal(answer.status, 400, callbackUrl);
      assert.equal(answer.body.error?.code, 'invalid_request');
      assert.equal(answer.body.error?.details?.field, 'callbackUrl');
    }
  });

  describe('in a deployment that refuses private callback URLs (the production default)', () => {
    let strictApi: ExtraApi;
    const accepted: string[] = [];
    beforeAll(async () => {
      // No worker polls this API's queues: an accepted job must never try to deliver to its (public) URL,
      // since tests send traffic to loopback only.
      strictApi = await startExtraApi('api-strict-callbacks', {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
        TASK_QUEUE_PREFIX: 'nobody-polls-this',
      });
    });
    afterAll(async () => {
      await terminateJobs(accepted);
      await strictApi.stop();
    });

    test('when the callbackUrl points at loopback, a private or a link-local address, then submit is a 400', async () => {
      const sample = await sampleWith('posted');
      for (const callbackUrl of [receiver.url, 'http://[::1]:8080/hook', 'http://10.0.0.8/hook', 'http://169.254.169.254/latest/meta-data', 'http://localhost:3000/hook']) {
        const answer = await submit(sample.bytes, { baseUrl: strictApi.url, fields: { type: 'invoice', callbackUrl } });
        assert.equal(answer.status, 400, `${callbackUrl}: ${JSON.stringify(answer.body)}`);
        assert.match(answer.body.error?.message ?? '', /callbackUrl/);
      }
      const publicUrl = await submit(sample.bytes, { baseUrl: strictApi.url, fields: { type: 'invoice', callbackUrl: 'https://hooks.example.com/slowlane' } });
      assert.equal(publicUrl.status, 202, 'a public https URL is accepted');
      accepted.push(publicUrl.body.jobId as string);
    });
  });

  describe("a tenant's default callback URL", () => {
    let defaultsApi: ExtraApi;
    let tenantDefault: WebhookReceiver;
    beforeAll(async () => {
      tenantDefault = await startWebhookReceiver();
      const tenants = TEST_SECRETS.tenants.map((tenant) => (tenant.id === demo.id ? { ...tenant, defaultCallbackUrl: tenantDefault.url } : tenant));
      defaultsApi = await startExtraApi('api-default-callback', { SLOWLANE_TENANTS: JSON.stringify(tenants) });
    });
    afterAll(async () => {
      await defaultsApi.stop();
      await tenantDefault.close();
    });

    test('when a job is submitted without a callbackUrl, then its webhooks go to the tenant default', async () => {
      const sample = await sampleWith('posted');
      const { status, body } = await submit(sample.bytes, { baseUrl: defaultsApi.url, fileName: sample.fileName });
      assert.equal(status, 202);
      const jobId = body.jobId as string;
      await waitForJob(jobId, ['posted']);
      const [delivery] = (await tenantDefault.waitFor((all) => all.some(forJob(jobId)), 30_000)).filter(forJob(jobId));
      assert.ok(delivery);
      assert.equal(verified(delivery).type, 'job.posted');
    });
  });
});
