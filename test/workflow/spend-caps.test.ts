import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { TenantSpendCapReachedError } from '../../common/errors';
import type { JobState } from '../../common/job';
import { statusQuery } from '../../common/messages';
import { wakeBudgetWaits } from '../../ops/spend-cap-raised';
import { fakeActivities } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus } from '../support/workflow-harness';

/** What the gateway throws when the tenant's cap cannot cover the call (gateway/spend/spend-capped-gateway.ts). */
function capReached(resumesAt: Date): TenantSpendCapReachedError {
  return new TenantSpendCapReachedError('tenant has spent its daily cap', {
    details: { spendCap: { window: 'day', capUsd: 5, spentUsd: 5, resumesAt: resumesAt.toISOString() } },
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a job whose tenant reached its spend cap', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  // The dev server has no time skipping (the SDK's time-skipping server is a download this machine cannot make), so
  // the window here turns two seconds after the refusal: the same durable timer a real midnight would set.
  test('when the window turns, then the job leaves budget_wait and runs the refused step again, and its tenant got a job.budget_wait webhook', async () => {
    const fake = fakeActivities({ classifyDocument: [capReached(new Date(Date.now() + 2_000))] });
    const { waiting, state } = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start({ callbackUrl: 'https://example.com/hook' });
      await waitForStatus(handle, 'budget_wait');
      const waiting = await handle.query(statusQuery);
      const state = await handle.result();
      for (let i = 0; i < 50 && !fake.webhooks.some((hook) => hook.event.type === 'job.posted'); i++) await pause(100);
      return { waiting, state };
    });
    assert.equal(waiting.step, 'classifyDocument');
    assert.equal(waiting.budgetWait?.window, 'day');
    assert.equal(waiting.budgetWait?.capUsd, 5);
    assert.equal(waiting.error, undefined, 'waiting for the budget is no failure');
    assert.equal(state.status, 'posted');
    assert.equal(fake.calls.classifyDocument, 2, 'the refused step ran again once the window turned');
    assert.equal(state.budgetWait, undefined);
    assert.equal(state.deadLetter, undefined);
    assert.deepEqual(
      state.events.map((event) => `${event.status}${event.step ? `:${event.step}` : ''}`).slice(0, 4),
      ['processing:extractText', 'processing:classifyDocument', 'budget_wait:classifyDocument', 'processing:classifyDocument'],
    );
    const hook = fake.webhooks.find((delivered) => delivered.event.type === 'job.budget_wait');
    assert.ok(hook, `webhooks sent: ${fake.webhooks.map((delivered) => delivered.event.type).join(', ')}`);
    assert.equal(hook.event.data.status, 'budget_wait');
    assert.deepEqual(hook.event.data.budgetWait, waiting.budgetWait);
  });

  test('when an operator raises the cap, then the tenant’s waiting jobs are found by their status and resume before the window turns', async () => {
    const fake = fakeActivities({ classifyDocument: [capReached(new Date(Date.now() + 24 * 60 * 60 * 1000))] });
    const tenantId = `capped-${Date.now()}`;
    const { state, woken } = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start({ tenantId });
      await waitForStatus(handle, 'budget_wait');
      // Visibility catches up with the status within moments; the operator's wake finds the job there.
      let woken = 0;
      for (let i = 0; i < 50 && woken === 0; i++) {
        woken = (await wakeBudgetWaits(harness.env.client, tenantId, 'ops-oliver')).woken;
        if (woken === 0) await pause(200);
      }
      return { state: (await handle.result()) as JobState, woken };
    });
    assert.equal(woken, 1);
    assert.equal(state.status, 'posted');
    assert.equal(fake.calls.classifyDocument, 2);
  });

  test('when the cap is raised for a job that is not waiting, then the signal changes nothing', async () => {
    const fake = fakeActivities();
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await handle.signal('spendCapRaised', { operator: 'ops-oliver' });
      return handle.result();
    });
    assert.equal(state.status, 'posted');
    assert.ok(!state.events.some((event) => event.status === 'budget_wait'));
  });
});
