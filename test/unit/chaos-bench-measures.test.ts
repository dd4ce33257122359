import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { temporal } from '@temporalio/proto';
import { summarizeHistory } from '../../bench/chaos/histories';
import { JOB_MIX, jobPlan } from '../../bench/chaos/job-mix';
import { checkLedger, recoveries } from '../../bench/chaos/measure';
import type { SubmittedJob } from '../../bench/chaos/submit';
import { historyFromFileText } from '../../ops/history-files';

const recorded = (name: string) =>
  historyFromFileText(readFileSync(join(__dirname, '..', 'histories', `${name}.json`), 'utf8'));
const EventType = temporal.api.enums.v1.EventType;

describe('the chaos benchmark counts from what the server recorded', () => {
  test('when a job ran each step once, or asked the model again after a schema-invalid answer, then no finished step counts as rerun', () => {
    for (const name of ['posted', 'schema-invalid-to-review', 'rate-limited-then-posted', 'reviewed-approved']) {
      assert.deepEqual(summarizeHistory(name, recorded(name)).finishedStepsRerun, [], name);
    }
    assert.ok(
      summarizeHistory('posted', recorded('posted')).modelStepsCompleted >= 2,
      'classify and extract completed',
    );
  });

  test('when a step that had completed is scheduled and completes again, then it counts as one rerun of that step', () => {
    const history = recorded('posted');
    const events = history.events ?? [];
    const scheduled = events.find((event) => event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    const completed = events.find((event) => event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED);
    assert.ok(scheduled && completed);
    const id = 10_000;
    const again = [
      { ...scheduled, eventId: id },
      {
        ...completed,
        eventId: id + 1,
        activityTaskCompletedEventAttributes: {
          ...completed.activityTaskCompletedEventAttributes,
          scheduledEventId: id,
        },
      },
    ];
    const rerun = summarizeHistory('doubled', {
      events: [...events, ...again] as temporal.api.history.v1.IHistoryEvent[],
    });
    assert.deepEqual(rerun.finishedStepsRerun, [
      { activity: scheduled.activityTaskScheduledEventAttributes?.activityType?.name, completions: 2 },
    ]);
  });

  test('when steps time out after kills, then each belongs to the last kill on its queue before it ran again', () => {
    const kills = [
      { worker: 'worker-interactive', priority: 'interactive' as const, pid: 1, at: 1_000, backAfterMs: 500 },
      { worker: 'worker-bulk', priority: 'bulk' as const, pid: 2, at: 2_000 },
      { worker: 'worker-interactive-2', priority: 'interactive' as const, pid: 3, at: 3_000 },
    ];
    const retry = (taskQueue: string, restartedAt: number) => ({
      jobId: 'j',
      activity: 'classifyDocument',
      taskQueue,
      restartedAt,
      timeout: 'heartbeat' as const,
    });
    const result = recoveries(kills, [
      retry('slowlane-interactive', 2_500),
      retry('slowlane-interactive', 19_000),
      retry('slowlane-bulk', 18_000),
    ]);
    assert.deepEqual(
      result.map((kill) => [kill.interruptedSteps, kill.stepsRunningAgainMs, kill.workerBackMs]),
      [
        [1, 1_500, 500],
        [1, 16_000, null],
        [1, 16_000, null],
      ],
    );
  });

  test('when the ledger holds two entries for a job or one for no posted job, then both are named', () => {
    const job = (jobId: string) => ({ jobId }) as SubmittedJob;
    const statuses = new Map([
      ['a', 'posted'],
      ['b', 'posted'],
      ['c', 'rejected'],
    ]);
    const entries = [
      { id: 'e1', jobId: 'a', idempotencyKey: 'a' },
      { id: 'e2', jobId: 'b', idempotencyKey: 'b' },
      { id: 'e3', jobId: 'b', idempotencyKey: 'b2' },
      { id: 'e4', jobId: 'c', idempotencyKey: 'c' },
    ];
    assert.deepEqual(checkLedger([job('a'), job('b'), job('c')], statuses, entries), {
      postedJobs: 2,
      exactlyOnce: 1,
      postedTwice: ['b'],
      postedWithoutEntry: [],
      entriesWithoutJob: ['e4'],
    });
  });

  test('when the plan is drawn from the job mix, then each kind gets its weight’s share', () => {
    const plan = jobPlan(240);
    const total = JOB_MIX.reduce((sum, kind) => sum + kind.weight, 0);
    for (const kind of JOB_MIX)
      assert.equal(plan.filter((picked) => picked === kind).length, (240 * kind.weight) / total, kind.name);
  });
});
