import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { WorkflowFailedError } from '@temporalio/client';
import { WebhookRejectedError } from '../../common/errors';
import type { DeliverWebhookInput } from '../../common/webhooks';
import { listGivenUpWebhooks, redeliverWebhook } from '../../ops/webhook-redelivery';
import { fakeActivities } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

async function givenUpCount(harness: WorkflowHarness, errorType: string): Promise<number> {
  const { values } = await harness.telemetry.metrics.webhooksGivenUp.get();
  return values.find((value) => value.labels.error_type === errorType)?.value ?? 0;
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`never true: ${what}`);
}

describe('a webhook delivery that is given up, then redelivered by an operator', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when the receiver answers 410, then the delivery fails, is counted and listed; a redelivery sends the same event once more', async () => {
    const sent: DeliverWebhookInput[] = [];
    const fake = fakeActivities();
    let receiverGone = true;
    const activities = {
      ...fake.activities,
      deliverWebhook: async (input: DeliverWebhookInput) => {
        sent.push(input);
        if (receiverGone) throw new WebhookRejectedError('the receiver answered 410 Gone');
        return { status: 204, attempt: 1 };
      },
    };
    const namespace = harness.env.namespace ?? 'default';
    const before = await givenUpCount(harness, 'WebhookRejectedError');
    await harness.withWorker(activities, async (start) => {
      const job = await start({ callbackUrl: 'http://127.0.0.1:9/hook' });
      await job.result();
      const history = await job.fetchHistory();
      const deliveryId = history.events?.find((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)
        ?.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
      assert.ok(deliveryId, 'the posted job started a webhook delivery');
      const delivery = harness.env.client.workflow.getHandle(deliveryId);
      await assert.rejects(delivery.result(), WorkflowFailedError);
      await eventually(async () => (await givenUpCount(harness, 'WebhookRejectedError')) === before + 1, 'the give-up is counted once');

      await eventually(
        async () => (await listGivenUpWebhooks(harness.env.client, { limit: 1000 })).deliveries.some((d) => d.deliveryId === deliveryId),
        'visibility lists the given-up delivery',
      );
      const listed = (await listGivenUpWebhooks(harness.env.client, { limit: 1000 })).deliveries.find((d) => d.deliveryId === deliveryId);
      assert.equal(listed?.jobId, job.workflowId);
      assert.equal(listed?.eventId, sent[0]?.event.id);

      receiverGone = false;
      const outcome = await redeliverWebhook(harness.env.client, deliveryId, { namespace, operator: 'ops', reason: 'receiver fixed' });
      assert.equal(outcome.action, 'redelivered', JSON.stringify(outcome));
      await harness.env.client.workflow.getHandle(deliveryId, outcome.runId).result();
      assert.equal(sent.length, 2, 'one failed attempt, one redelivery');
      assert.deepEqual(sent[1], sent[0], 'the same event, to the same URL, with the same id');

      const again = await redeliverWebhook(harness.env.client, deliveryId, { namespace, operator: 'ops', reason: 'twice' });
      assert.equal(again.action, 'refused', JSON.stringify(again));
      assert.match(again.detail, /completed/);
      const afterwards = await listGivenUpWebhooks(harness.env.client, { limit: 1000 });
      assert.ok(!afterwards.deliveries.some((d) => d.deliveryId === deliveryId), 'a redelivered delivery is no longer listed');
      assert.equal(await givenUpCount(harness, 'WebhookRejectedError'), before + 1, 'the redelivery that succeeded is not a give-up');

      const job2 = await redeliverWebhook(harness.env.client, job.workflowId, { namespace, operator: 'ops', reason: 'not a delivery' });
      assert.equal(job2.action, 'not_found', 'a job is not a webhook delivery');
    });
  });
});
