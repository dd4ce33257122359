import type { PatchRecord } from '../workflows/patches';
import { RESETTABLE } from './replay';

/** An active patch may be deprecated (retirement's first deploy); a deprecated one may then be removed. */
export type PatchVerdict = 'may be retired' | 'keep' | 'may be removed' | 'keep deprecated';

/** When the report looks: its clock, the namespace's retention and how late builds reached the workers. */
export interface ReportWindow {
  now: Date;
  /** A closed run can be reset (and so replay its history) until the namespace deletes it. */
  retentionMs: number;
  /** How long after its commit a build reached the workers; runs started within it ran the old code too. */
  deployLagMs: number;
}

/** The two questions the report asks Temporal's visibility. */
export interface Visibility {
  count(query: string): Promise<number>;
  workflowIds(query: string, limit: number): Promise<string[]>;
}

export interface PatchReportRow {
  record: PatchRecord;
  /** Runs started before this could have run code without the patch. */
  startedBefore: Date;
  oldBranchCount: number;
  /** A few of them, for the operator to look at. */
  examples: string[];
  verdict: PatchVerdict;
}

const DAY_MS = 86_400_000;
const EXAMPLES = 3;

/**
 * The register dates a patch by its commit's day, not its hour nor the deploy that carried it: every run started
 * before that day ended (plus the deploy lag) may have run a build without it.
 */
export function oldCodeCutoff(record: PatchRecord, deployLagMs: number): Date {
  // A deprecated patch waits for the runs that met `patched()`: those started before the deprecating build.
  const { date } = record.deprecated ?? record.shipped;
  const dayStart = Date.parse(`${date}T00:00:00Z`);
  if (!Number.isFinite(dayStart)) throw new Error(`${record.id}: date ${date} is not a date`);
  return new Date(dayStart + DAY_MS + deployLagMs);
}

function verdictOf(record: PatchRecord, oldBranchCount: number): PatchVerdict {
  if (record.deprecated) return oldBranchCount === 0 ? 'may be removed' : 'keep deprecated';
  return oldBranchCount === 0 ? 'may be retired' : 'keep';
}

/** FAILED → Failed, TIMED_OUT → TimedOut: the status as visibility queries spell it. */
function visibilityStatus(name: string): string {
  return name
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * Executions that could still take the patch's old branch: of the types whose code checks it, running or closed
 * as the replay tool resets them (ops/replay.ts) within the retention, whose run started on old code. A collector
 * that continued as new is listed by its current run, whose start is what counts: the runs before it are closed
 * and never replayed again.
 */
export function oldBranchQuery(record: PatchRecord, window: ReportWindow): string {
  const types = record.workflowTypes.map((type) => `'${type}'`).join(', ');
  const retainedSince = new Date(window.now.getTime() - window.retentionMs).toISOString();
  const resettable = [...RESETTABLE].map((status) => `ExecutionStatus = '${visibilityStatus(status)}'`).join(' OR ');
  return [
    `WorkflowType IN (${types})`,
    `StartTime < '${oldCodeCutoff(record, window.deployLagMs).toISOString()}'`,
    `(ExecutionStatus = 'Running' OR ((${resettable}) AND CloseTime > '${retainedSince}'))`,
  ].join(' AND ');
}

export async function reportPatches(visibility: Visibility, records: readonly PatchRecord[], window: ReportWindow): Promise<PatchReportRow[]> {
  const rows: PatchReportRow[] = [];
  for (const record of records) {
    const query = oldBranchQuery(record, window);
    const oldBranchCount = await visibility.count(query);
    const examples = oldBranchCount > 0 ? await visibility.workflowIds(query, EXAMPLES) : [];
    rows.push({
      record,
      startedBefore: oldCodeCutoff(record, window.deployLagMs),
      oldBranchCount,
      examples,
      verdict: verdictOf(record, oldBranchCount),
    });
  }
  return rows;
}

/** One line per patch, what it guards last (it is long), and the rule the counts follow. */
export function formatPatchReport(rows: readonly PatchReportRow[], window: ReportWindow): string {
  const table = [
    ['patch', 'shipped', 'started before', 'could take the old branch', 'verdict', 'guards'],
    ...rows.map(({ record, startedBefore, oldBranchCount, examples, verdict }) => [
      record.id,
      `${record.shipped.date} ${record.shipped.commit}${record.deprecated ? `, deprecated ${record.deprecated.date} ${record.deprecated.commit}` : ''}`,
      startedBefore.toISOString().slice(0, 16).replace('T', ' '),
      oldBranchCount === 0 ? '0' : `${oldBranchCount}: ${examples.join(', ')}${oldBranchCount > examples.length ? ', …' : ''}`,
      verdict,
      record.guards,
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const lines = table.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
  const retentionDays = Math.round((window.retentionMs / DAY_MS) * 10) / 10;
  return [
    ...lines,
    '',
    `Counted: executions of the workflow types that check the patch, running or closed as failed, terminated or timed out within the retention (${retentionDays} d), whose current run started before the end of the shipped day${window.deployLagMs > 0 ? ' plus the deploy lag' : ''}.`,
    'Deprecated patches count runs started before the end of the day they were deprecated: their histories hold the marker patched() wrote.',
    'A patch that "may be retired" goes in two deploys: deprecatePatch() first ("may be removed" once its runs are gone), then the call and its register entry (docs/operations.md#changing-a-workflow-safely).',
  ].join('\n');
}
