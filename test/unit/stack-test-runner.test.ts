import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { summaryLine } from '../../local/stack/test-runner';

const jestRun = (counts: Partial<Parameters<typeof summaryLine>[0][number]>) => ({
  numPassedTests: 0,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  numRuntimeErrorTestSuites: 0,
  ...counts,
});

describe("npm test's closing line", () => {
  test('when both Jest runs report, then the line adds them up, with files that failed to run as failed and todo as skipped', () => {
    const unit = jestRun({
      numPassedTests: 300,
      numFailedTests: 2,
      numPendingTests: 1,
      numTodoTests: 1,
      numRuntimeErrorTestSuites: 1,
    });
    const stack = jestRun({ numPassedTests: 80, numPendingTests: 2 });
    assert.equal(summaryLine([unit, stack], 1), '380 passed, 3 failed, 4 skipped');
    assert.equal(summaryLine([jestRun({ numPassedTests: 386 })], 0), '386 passed, 0 failed, 0 skipped');
  });

  test('when the run failed without a counted failure (the stack never started, an interrupt, no result file), then it still says failed', () => {
    assert.equal(summaryLine([], 1), '0 passed, 1 failed, 0 skipped');
    assert.equal(summaryLine([{}], 1), '0 passed, 1 failed, 0 skipped');
    assert.equal(summaryLine([jestRun({ numPassedTests: 12 })], 130), '12 passed, 1 failed, 0 skipped');
  });
});
