import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { measureFairness } from '../../bench/fairness/measure';
import { DEFAULT_SETTINGS } from '../../bench/fairness/settings';
import type { FairnessJob, FairnessObservation } from '../../bench/fairness/side';

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
  return { side: 'fair', jobs, ...WINDOW, finishedAt: 300_000, times, smallAnsweredCalls: new Map(), env: {} };
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
