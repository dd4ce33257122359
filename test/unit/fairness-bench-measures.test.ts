import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { measureFairness } from '../../bench/fairness/measure';
import { DEFAULT_SETTINGS } from '../../bench/fairness/settings';
import type { FairnessJob, FairnessObservation } from '../../bench/fairness/side';
import { breakDownJobTime } from '../../bench/fairness/time-breakdown';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

const WINDOW = { windowStart: 100_000, windowEnd: 280_000 };

/** `flood` and `small` jobs, each closed at the given time (undefined: still open). */
function observation(closed: {
  flood: Array<number | undefined>;
  small: Array<number | undefined>;
}): FairnessObservation {
  const jobs: FairnessJob[] = [];
  const times = new Map<string, { startedAt: number; closedAt?: number; status: string }>();
  for (const tenant of ['flood', 'small'] as const) {
    closed[tenant].forEach((closedAt, index) => {
      const jobId = `invoice:${tenant}:${index}`;
      jobs.push({ jobId, tenant, marker: jobId, submittedAt: WINDOW.windowStart });
      times.set(jobId, { startedAt: WINDOW.windowStart, status: 'x', ...(closedAt !== undefined ? { closedAt } : {}) });
    });
  }
  return {
    side: 'fair',
    jobs,
    ...WINDOW,
    finishedAt: 300_000,
    times,
    smallAnsweredCalls: new Map(),
    breakdowns: new Map(),
    env: {},
  };
}

const inWindow = (count: number) => Array.from({ length: count }, () => 200_000);

describe('the fairness benchmark measures the small tenant against its weighted due', () => {
  test('when both tenants complete as many jobs in the window at equal weights, then the small tenant got exactly its share', () => {
    const figures = measureFairness(
      observation({ flood: [...inWindow(20), undefined], small: inWindow(20) }),
      DEFAULT_SETTINGS,
    );
    assert.equal(figures.smallTenantShareVsWeighted, 1);
    assert.equal(figures.floodQueuedAtWindowEnd, 1);
  });

  test('when the small tenant wanted less than its share and got all of it, then it got all it was due', () => {
    const figures = measureFairness(observation({ flood: inWindow(30), small: inWindow(10) }), DEFAULT_SETTINGS);
    assert.equal(figures.smallTenantShareVsWeighted, 1);
  });

  test('when the flood is served first and the small tenant finishes nothing in the window, then its share is 0 and its waits run to the end', () => {
    const figures = measureFairness(
      observation({ flood: inWindow(40), small: [undefined, 400_000] }),
      DEFAULT_SETTINGS,
    );
    assert.equal(figures.smallTenantShareVsWeighted, 0);
    assert.equal(figures.smallUnfinished, 1);
    assert.equal(figures.smallTenantP95WaitMs, 400_000 - WINDOW.windowStart);
  });

  test('when weights are 1:3, then the small tenant is due three quarters of the completions', () => {
    const settings = { ...DEFAULT_SETTINGS, weights: { flood: 1, small: 3 } };
    const figures = measureFairness(
      observation({ flood: inWindow(20), small: [...inWindow(20), ...Array<undefined>(10).fill(undefined)] }),
      settings,
    );
    assert.equal(figures.weightedShare, 0.75);
    assert.equal(figures.smallTenantShareVsWeighted, 20 / 30);
  });
});

type EventAt = [eventId: number, ms: number, event: Record<string, unknown>];

/** A history of events at the given milliseconds: just the fields the breakdown reads (numbers become Longs). */
function history(events: EventAt[]): temporal.api.history.v1.IHistory {
  return temporal.api.history.v1.History.fromObject({
    events: events.map(([eventId, ms, event]) => ({
      eventId,
      eventTime: { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 },
      ...event,
    })),
  });
}
const started = { eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED };
const scheduled = (name: string) => ({
  eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
  activityTaskScheduledEventAttributes: { activityType: { name } },
});
const activityStarted = (scheduledEventId: number) => ({
  eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
  activityTaskStartedEventAttributes: { scheduledEventId, attempt: 1 },
});
const activityCompleted = (scheduledEventId: number) => ({
  eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
  activityTaskCompletedEventAttributes: { scheduledEventId },
});
/** Text read after 4 s in the queue, classified after 5 s waiting and 1.5 s calling, the extraction queued since 11 s. */
const OPEN_JOB: EventAt[] = [
  [1, 0, started],
  [5, 1_000, scheduled('extractText')],
  [6, 4_000, activityStarted(5)],
  [7, 4_100, activityCompleted(5)],
  [11, 4_300, scheduled('classifyDocument')],
  [12, 9_300, activityStarted(11)],
  [13, 10_800, activityCompleted(11)],
  [17, 11_000, scheduled('extractInvoiceFields')],
];

describe('the fairness benchmark splits a job\'s time by where it went', () => {
  test('when a job is still waiting for a model call at the end, then that wait counts as waiting for budget until the end', () => {
    assert.deepEqual(breakDownJobTime(history(OPEN_JOB), 20_000), {
      queuedBeforeFirstStepMs: 4_000,
      waitingForBudgetMs: 5_000 + 9_000,
      inModelCallsMs: 1_500,
      otherMs: 500,
      modelStepWaits: [
        { step: 'classifyDocument', waitMs: 5_000, attempts: 1 },
        { step: 'extractInvoiceFields', waitMs: 9_000, attempts: 0 },
      ],
    });
  });

  test('when the job finished, then its parts add up to submit → done whatever the end of the run', () => {
    const done = history([
      ...OPEN_JOB,
      [18, 12_000, { ...activityStarted(17), activityTaskStartedEventAttributes: { scheduledEventId: 17, attempt: 3 } }],
      [19, 14_000, activityCompleted(17)],
      [25, 15_000, { eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED }],
    ]);
    const breakdown = breakDownJobTime(done, 99_000);
    assert.deepEqual(breakdown, {
      queuedBeforeFirstStepMs: 4_000,
      waitingForBudgetMs: 5_000 + 1_000,
      inModelCallsMs: 1_500 + 2_000,
      otherMs: 1_500,
      modelStepWaits: [
        { step: 'classifyDocument', waitMs: 5_000, attempts: 1 },
        { step: 'extractInvoiceFields', waitMs: 1_000, attempts: 3 },
      ],
    });
  });
});
