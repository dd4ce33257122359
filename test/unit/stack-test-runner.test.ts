import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { summaryLine } from '../../local/stack/test-runner';

describe("npm test's closing line", () => {
  test('when tests ran, then the line reads "N passed, N failed, N skipped" with cancelled as failed and todo as skipped', () => {
    assert.equal(summaryLine({ pass: 380, fail: 2, cancelled: 1, skipped: 3, todo: 1 }, 1), '380 passed, 3 failed, 4 skipped');
    assert.equal(summaryLine({ pass: 386, fail: 0, cancelled: 0, skipped: 0, todo: 0 }, 0), '386 passed, 0 failed, 0 skipped');
  });

  test('when the run failed without a counted failure (the stack never started, an interrupt), then it still says failed', () => {
    assert.equal(summaryLine({}, 1), '0 passed, 1 failed, 0 skipped');
    assert.equal(summaryLine({ pass: 12, fail: 0 }, 130), '12 passed, 1 failed, 0 skipped');
  });

  test("when the summary reporter reads node's events, then it keeps the root's closing counts only", async () => {
    const { default: reporter } = (await import(join(__dirname, '..', '..', 'local', 'stack', 'test-summary-reporter.mjs'))) as {
      default: (source: AsyncIterable<unknown>) => AsyncGenerator<string>;
    };
    async function* events() {
      yield { type: 'test:pass', data: { nesting: 0, name: 'a test' } };
      yield { type: 'test:diagnostic', data: { nesting: 1, message: 'pass 99' } };
      for (const message of ['tests 5', 'suites 1', 'pass 3', 'fail 1', 'cancelled 0', 'skipped 1', 'todo 0', 'duration_ms 12.5']) {
        yield { type: 'test:diagnostic', data: { nesting: 0, message } };
      }
    }
    const out: string[] = [];
    for await (const chunk of reporter(events())) out.push(chunk);
    assert.deepEqual(JSON.parse(out.join('')), { tests: 5, pass: 3, fail: 1, cancelled: 0, skipped: 1, todo: 0 });
  });
});
