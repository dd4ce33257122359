import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Registry } from 'prom-client';
import { readScheduleMisses, registerScheduleCounters } from '../../lib/metrics-schedules';
import { createTemporalTestEnv } from '../support/temporal-env';

describe('schedule runs skipped, as the API exports them', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTemporalTestEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  test('when a schedule is triggered while its run is still going, then the skip is counted under its tenant and id', async () => {
    const scheduleId = `skips-${randomUUID()}`;
    // No worker polls this queue: the first run stays running, so the schedule's SKIP policy skips the second.
    const handle = await env.client.schedule.create({
      scheduleId: `test:${scheduleId}`,
      spec: { intervals: [{ every: '365 days' }] },
      action: { type: 'startWorkflow', workflowType: 'ticketsDigestWorkflow', workflowId: `tickets.digest:test:${scheduleId}`, taskQueue: `nobody-${randomUUID()}`, args: [] },
      policies: { overlap: 'SKIP' },
      memo: { tenantId: 'test', scheduleId, type: 'tickets.digest' },
    });
    try {
      await handle.trigger('SKIP');
      for (let i = 0; i < 100 && (await handle.describe()).info.runningActions.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      await handle.trigger('SKIP');

      let row: Awaited<ReturnType<typeof readScheduleMisses>>[number] | undefined;
      for (let i = 0; i < 100 && (row?.skippedOverlap ?? 0) < 1; i++) {
        row = (await readScheduleMisses(env.client)).find((found) => found.schedule === scheduleId);
        if ((row?.skippedOverlap ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(row, { tenant: 'test', schedule: scheduleId, jobType: 'tickets.digest', skippedOverlap: 1, missedCatchupWindow: 0 });

      const registry = new Registry();
      registerScheduleCounters(registry, async () => [row as NonNullable<typeof row>]);
      const text = await registry.metrics();
      assert.match(text, new RegExp(`slowlane_schedule_runs_skipped_total\\{tenant="test",schedule="${scheduleId}",job_type="tickets.digest",reason="overlap"\\} 1`));
      assert.match(text, new RegExp(`slowlane_schedule_runs_skipped_total\\{tenant="test",schedule="${scheduleId}",job_type="tickets.digest",reason="catchup_window"\\} 0`));
    } finally {
      const running = (await handle.describe()).info.runningActions;
      await handle.delete();
      for (const action of running) await env.client.workflow.getHandle(action.workflow.workflowId).terminate('test over').catch(() => undefined);
    }
  });

  test('when a schedule was not made by the API (no tenant in its memo), then it is not read', async () => {
    const scheduleId = `foreign-${randomUUID()}`;
    const handle = await env.client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '365 days' }] },
      action: { type: 'startWorkflow', workflowType: 'ticketsDigestWorkflow', taskQueue: `nobody-${randomUUID()}`, args: [] },
      state: { paused: true },
    });
    try {
      const listed = async () => {
        for await (const summary of env.client.schedule.list()) if (summary.scheduleId === scheduleId) return true;
        return false;
      };
      for (let i = 0; i < 100 && !(await listed()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(await listed(), 'visibility lists the schedule');
      assert.ok(!(await readScheduleMisses(env.client)).some((row) => row.schedule === scheduleId));
    } finally {
      await handle.delete();
    }
  });
});
