import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { PushRejectedError } from '../../common/errors';
import type { DeliverPushInput, PushEvent, PushNotification, PushOutcome, PushTarget } from '../../common/push';
import type { deliverPushWorkflow } from '../../workflows';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

async function pushesGivenUp(harness: WorkflowHarness, errorType: string): Promise<number> {
  const { values } = await harness.telemetry.metrics.pushesGivenUp.get();
  return values.find((value) => value.labels.error_type === errorType)?.value ?? 0;
}

const message = {
  event: 'status',
  id: 3,
  jobType: 'invoice',
  data: { jobId: 'invoice:test:push-1', status: 'posted', at: new Date(0).toISOString() },
} as unknown as PushEvent;

describe('a push delivery', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when one subscriber’s push is refused for good, then the others still get theirs and the give-up is counted once', async () => {
    const targets: PushTarget[] = [
      { id: 'alive', scope: 'job' },
      { id: 'refused', scope: 'job' },
      { id: 'gone', scope: 'review_queue' },
    ];
    const delivered: string[] = [];
    const activities = {
      findPushTargets: async () => targets,
      deliverPush: async (input: DeliverPushInput): Promise<PushOutcome> => {
        if (input.target.id === 'refused') throw new PushRejectedError('push endpoint refused: it is not public');
        if (input.target.id === 'gone') return { outcome: 'gone' };
        delivered.push(input.target.id);
        return { outcome: 'delivered', status: 201 };
      },
    };
    const before = await pushesGivenUp(harness, 'PushRejectedError');
    const summary = await harness.withWorker(activities, async (_start, _order, taskQueue) => {
      const input: PushNotification = { tenantId: 'test', scopes: ['job'], message };
      return harness.env.client.workflow.execute<typeof deliverPushWorkflow>('deliverPushWorkflow', {
        taskQueue,
        workflowId: `push:test:${Date.now()}`,
        args: [input],
      });
    });
    assert.deepEqual(summary, { delivered: 1, gone: 1, failed: 1 });
    assert.deepEqual(delivered, ['alive']);
    // The sink reports when the workflow task completes, which may be just after the client has the result.
    for (let look = 0; look < 50 && (await pushesGivenUp(harness, 'PushRejectedError')) === before; look++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(await pushesGivenUp(harness, 'PushRejectedError'), before + 1);
  }, 120_000);
});
