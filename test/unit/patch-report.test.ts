import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { formatPatchReport, oldBranchQuery, reportPatches, type ReportWindow, type Visibility } from '../../ops/patch-report';
import { type PatchRecord, PATCHES } from '../../workflows/patches';

const DAY_MS = 86_400_000;
const WINDOW: ReportWindow = { now: new Date('2026-12-20T12:00:00Z'), retentionMs: 7 * DAY_MS, deployLagMs: 0 };
const collector = PATCHES.collectorCarriesLateEntries;

/** Visibility as the report sees it: only the collector has old runs, and the queries asked are kept. */
function collectorOnlyVisibility(): Visibility & { asked: string[] } {
  const asked: string[] = [];
  const old = (query: string) => query.includes("'batchCollectorWorkflow'");
  return {
    asked,
    count: async (query) => (asked.push(query), old(query) ? 5 : 0),
    workflowIds: async (query, limit) => (old(query) ? ['batch-collector:bulk', 'c2', 'c3', 'c4', 'c5'].slice(0, limit) : []),
  };
}

describe('the patch report (ops/patch-report.ts)', () => {
  test("when a patch shipped on a day, then runs started before that day's end count, running or resettable within the retention, of its types only", () => {
    const query = oldBranchQuery(collector, WINDOW);
    assert.match(query, /^WorkflowType IN \('batchCollectorWorkflow'\) AND /);
    assert.match(query, /StartTime < '2026-12-07T00:00:00\.000Z'/);
    assert.match(query, /ExecutionStatus = 'Running' OR \(\(/);
    for (const status of ['Failed', 'Terminated', 'TimedOut']) assert.match(query, new RegExp(`ExecutionStatus = '${status}'`));
    assert.doesNotMatch(query, /'Completed'|'Canceled'|'ContinuedAsNew'/);
    assert.match(query, /CloseTime > '2026-12-13T12:00:00\.000Z'/);
  });

  test('when builds reached the workers late, then the deploy lag moves the cutoff by as much', () => {
    const query = oldBranchQuery(collector, { ...WINDOW, deployLagMs: 3 * DAY_MS });
    assert.match(query, /StartTime < '2026-12-10T00:00:00\.000Z'/);
  });

  test('when a patch is deprecated, then the runs that count are those started before its deprecating build, and the verdict is about removing it', async () => {
    const deprecated = { ...collector, deprecated: { commit: 'abc1234', date: '2026-12-09', evidence: 'a report' } };
    assert.match(oldBranchQuery(deprecated, WINDOW), /StartTime < '2026-12-10T00:00:00\.000Z'/);
    const [kept, removable] = await Promise.all(
      [collectorOnlyVisibility(), { count: async () => 0, workflowIds: async () => [] }].map((visibility) => reportPatches(visibility, [deprecated], WINDOW)),
    );
    assert.equal(kept?.[0]?.verdict, 'keep deprecated');
    assert.equal(removable?.[0]?.verdict, 'may be removed');
    assert.equal((await reportPatches(collectorOnlyVisibility(), [collector], WINDOW))[0]?.verdict, 'keep');
    assert.match(formatPatchReport(kept ?? [], WINDOW), /, deprecated 2026-12-09 abc1234 /);
  });

  test('when only one workflow type has old runs, then its patch is kept with a few ids and every other may be retired', async () => {
    const visibility = collectorOnlyVisibility();
    const rows = await reportPatches(visibility, Object.values(PATCHES), WINDOW);
    assert.equal(visibility.asked.length, Object.keys(PATCHES).length);
    const verdicts = Object.fromEntries(rows.map((row) => [row.record.id, row.verdict]));
    for (const record of Object.values<PatchRecord>(PATCHES)) {
      const expected = record === collector ? 'keep' : record.deprecated ? 'may be removed' : 'may be retired';
      assert.equal(verdicts[record.id], expected, record.id);
    }
    const kept = rows.find((row) => row.record === collector);
    assert.equal(kept?.oldBranchCount, 5);
    assert.deepEqual(kept?.examples, ['batch-collector:bulk', 'c2', 'c3']);

    const lines = formatPatchReport(rows, WINDOW).split('\n');
    for (const record of Object.values(PATCHES)) {
      const line = lines.find((text) => text.startsWith(`${record.id} `));
      assert.ok(line, `no line for ${record.id}`);
      assert.ok(line.includes(record.shipped.commit) && line.endsWith(record.guards), line);
    }
    assert.match(lines.find((text) => text.startsWith(collector.id)) ?? '', /5: batch-collector:bulk, c2, c3, …\s+keep\s/);
  });
});
