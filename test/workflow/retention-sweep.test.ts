import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createRetentionActivities } from '../../activities/retention';
import { SWEEP_PAGES_PER_RUN } from '../../workflows/retention/retention-sweep-workflow';
import { fakeRetentionActivities } from '../support/fake-retention-activities';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

describe('the retention sweep workflow, on scripted activities', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function runSweep(activities: ReturnType<typeof fakeRetentionActivities>['activities']) {
    return harness.withWorker(activities, async (_start, _startOrderScore, taskQueue) => {
      const handle = await harness.env.client.workflow.start('retentionSweepWorkflow', { taskQueue, workflowId: `sweep-${randomUUID()}`, args: [{}] });
      return { handle, totals: await handle.result() };
    });
  }

  test('when there are more pages than one run lists, then it continues as new with its cursor and totals, and erases every job once', async () => {
    const pageCount = SWEEP_PAGES_PER_RUN + 3;
    const pages = Array.from({ length: pageCount }, (_, page) => [`invoice:test:${page}-a`, `invoice:test:${page}-b`]);
    const fake = fakeRetentionActivities(pages);
    const { handle, totals } = await runSweep(fake.activities);

    assert.deepEqual(totals, { jobs: pageCount * 2, objects: pageCount * 4, executions: pageCount * 2, sharedObjectsKept: 0, jobsKept: 0 });
    assert.deepEqual(fake.erased, pages.flat());
    // The second run starts where the first stopped: the cursor of page SWEEP_PAGES_PER_RUN, not from the start.
    assert.equal(fake.cursors.length, pageCount);
    assert.equal(fake.cursors[SWEEP_PAGES_PER_RUN]?.pageToken, String(SWEEP_PAGES_PER_RUN));
    const runs = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    assert.ok(runs?.continuedExecutionRunId, 'the run that returned was continued from an earlier one');
  });

  test('when its activities are not wired (no Temporal client), then the sweep fails at once rather than retrying', async () => {
    const refused = createRetentionActivities(undefined);
    const error = await runSweep(refused).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof WorkflowFailedError, String(error));
    assert.ok(error.cause?.cause instanceof ApplicationFailure);
    assert.equal(error.cause.cause.type, 'RetentionSweepUnavailable');
  });
});
