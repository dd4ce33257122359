import type { KillRecovery, LedgerCheck } from './measure';
import type { NaiveFigures } from './naive';
import type { ErasureFigures } from './erasures';
import type { SpendCheck } from './spend-check';

interface ChaosReport {
  durationS: number;
  slowlane: {
    submitted: number;
    erasure: ErasureFigures;
    settled: number;
    mostInFlight: number;
    outcomes: Record<string, number>;
    notAsExpected: string[];
    lost: string[];
    stuck: string[];
    approvedInReview: number;
    deadLetters: { total: number; byType: Record<string, number>; causedByRedis: number };
    spend: SpendCheck | { error: string };
    ledger: LedgerCheck;
    ledgerEntriesOfErasedJobs: number;
    finishedStepsRerun: { count: number };
    stepsInterruptedByKills: number;
    billedModelCallsNotUsed: number;
    userFacingErrors: number;
    settleAfterChaosMs: number;
  };
  faults: {
    workerKills: KillRecovery[];
    serverRestarts: Array<{ backAfterMs: number | null }>;
    redisOutages: Array<{ downMs: number }>;
    provider: { calls: number; byStatus: Record<string, number> };
    ledger: { posts: number; faults: number };
    deadWorkerNoticedAfterMs: Record<string, number>;
  };
  naive: NaiveFigures & { ledgerFaults: { posts: number; faults: number } };
}

const s = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);
const pct = (part: number, whole: number) => (whole === 0 ? '0 %' : `${((100 * part) / whole).toFixed(1)} %`);

export function printReport(report: ChaosReport): void {
  const { slowlane, faults, naive } = report;
  const providerErrors = Object.entries(faults.provider.byStatus)
    .filter(([status]) => status !== '200')
    .reduce((sum, [, count]) => sum + count, 0);
  const lines = [
    '',
    `Chaos benchmark — ${report.durationS} s`,
    `faults: ${faults.workerKills.length} worker SIGKILLs, ${faults.serverRestarts.length} Temporal server restarts ` +
      `(back after ${faults.serverRestarts.map((restart) => s(restart.backAfterMs)).join(', ')}), ` +
      `${faults.redisOutages.length} Redis SIGKILLs (down ${faults.redisOutages.map((outage) => s(outage.downMs)).join(', ')}), ` +
      `provider ${pct(providerErrors, faults.provider.calls)} of ${faults.provider.calls} calls ${JSON.stringify(faults.provider.byStatus)}, ` +
      `ledger ${faults.ledger.faults} of ${faults.ledger.posts} posts`,
    '',
    `Slowlane: ${slowlane.settled} of ${slowlane.submitted - slowlane.erasure.erased} jobs settled (${slowlane.submitted} submitted, ${slowlane.erasure.erased} erased in flight) (most in flight at once: ${slowlane.mostInFlight}); outcomes ${JSON.stringify(slowlane.outcomes)}`,
    `  erasures: ${slowlane.erasure.erased} erased while running (${slowlane.erasure.retriedRequests} requests sent again, ${slowlane.erasure.skipped} picked jobs already closed, ` +
      `${slowlane.erasure.refused.length} refused); of theirs left: ${slowlane.erasure.objectsLeft.length} objects, ${slowlane.erasure.executionsLeft.length} executions; ` +
      `other jobs' uploads gone: ${slowlane.erasure.othersInputsGone.length}; their ledger entries kept: ${slowlane.ledgerEntriesOfErasedJobs}`,
    `  lost ${slowlane.lost.length}, stuck ${slowlane.stuck.length}, not the expected outcome ${slowlane.notAsExpected.length}, approved in review ${slowlane.approvedInReview}`,
    `  dead letters ${slowlane.deadLetters.total} ${JSON.stringify(slowlane.deadLetters.byType)}, caused by Redis ${slowlane.deadLetters.causedByRedis}`,
    'error' in slowlane.spend
      ? `  spend: could not be read (${slowlane.spend.error})`
      : `  spend: store ${slowlane.spend.storeUsd} USD; the provider billed ${slowlane.spend.providerBilledUsd} USD, ${slowlane.spend.billedUndeliveredUsd} of it for answers no worker received (store − the rest: ${slowlane.spend.storeMinusDeliveredUsd}, still held by calls never settled: ${slowlane.spend.heldUsd}, ${slowlane.spend.withinHeld ? 'within it' : 'NOT within it'}); jobs' recorded usage ${slowlane.spend.jobsUsd} USD (${slowlane.spend.jobsRead} jobs, ${slowlane.spend.differenceUsd} below the store: calls lost with workers and erased jobs)`,
    `  ledger: ${slowlane.ledger.exactlyOnce} of ${slowlane.ledger.postedJobs} posted jobs with exactly 1 entry; posted twice ${slowlane.ledger.postedTwice.length}, ` +
      `posted without entry ${slowlane.ledger.postedWithoutEntry.length}, entries without a posted job ${slowlane.ledger.entriesWithoutJob.length}`,
    `  finished steps run again: ${slowlane.finishedStepsRerun.count}; steps interrupted by kills and run again: ${slowlane.stepsInterruptedByKills}; ` +
      `billed model calls whose result was lost with a worker: ${slowlane.billedModelCallsNotUsed}`,
    `  user-facing errors (jobs failed): ${slowlane.userFacingErrors} (${pct(slowlane.userFacingErrors, slowlane.submitted)}); all settled ${s(slowlane.settleAfterChaosMs)} after the last kill`,
    `  a dead worker's step is handed on after: ${Object.entries(faults.deadWorkerNoticedAfterMs)
      .map(([step, ms]) => `${step} ${s(ms)}`)
      .join(', ')}`,
    '  kill  worker               back polling  steps interrupted  running again after',
    ...faults.workerKills.map(
      (kill, i) =>
        `  ${String(i + 1).padStart(4)}  ${kill.worker.padEnd(20)} ${s(kill.workerBackMs).padStart(12)}  ${String(kill.interruptedSteps).padStart(17)}  ${s(kill.stepsRunningAgainMs).padStart(19)}`,
    ),
    '',
    `naive (in the request, SDK retries 2): ${naive.userFacingErrors} of ${naive.requests} requests answered an error (${pct(naive.userFacingErrors, naive.requests)}) ` +
      `${JSON.stringify(naive.errorsByStep)}; posted ${naive.posted}, orders decided ${naive.completed}, needs review ${naive.needsReview}, rejected ${naive.rejected}; ledger faults ${naive.ledgerFaults.faults} of ${naive.ledgerFaults.posts} posts`,
  ];
  console.log(lines.join('\n'));
}
