import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FairnessFigures, measureFairness } from './measure';
import { type FairnessSide, parseFairnessArgs } from './settings';
import { runFairnessSide } from './side';

const RESULTS_DIR = join(__dirname, '..', 'results');
/** Within 10 % of the weighted share (the target). */
const TARGET = { smallTenantShareVsWeighted: [0.9, 1.1] };

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} ms` : 'n/a');
const seconds = (value: number) => (Number.isFinite(value) ? `${(value / 1000).toFixed(1)} s` : 'n/a');
const p50p95 = (part: { p50: number; p95: number }) => `${seconds(part.p50)} / ${seconds(part.p95)}`;
const ROWS: Array<[string, (f: FairnessFigures) => string]> = [
  ['small tenant: completed ÷ its weighted due', (f) => f.smallTenantShareVsWeighted.toFixed(2)],
  [
    'small tenant share of completed (weighted)',
    (f) => `${percent(f.smallShareOfCompleted)} (${percent(f.weightedShare)})`,
  ],
  ['completed in window, flood / small', (f) => `${f.completedInWindow.flood} / ${f.completedInWindow.small}`],
  ['small tenant p50 / p95 wait', (f) => `${ms(f.smallTenantP50WaitMs)} / ${ms(f.smallTenantP95WaitMs)}`],
  ['small jobs unfinished at the end', (f) => `${f.smallUnfinished} of ${f.smallSubmitted}`],
  ['flood jobs queued at window end', (f) => String(f.floodQueuedAtWindowEnd)],
  ...(['small', 'flood'] as const).flatMap((tenant): Array<[string, (f: FairnessFigures) => string]> => [
    [`${tenant} p50/p95 queued before first step`, (f) => p50p95(f.timeBreakdown[tenant].queuedBeforeFirstStepMs)],
    [`${tenant} p50/p95 waiting for budget`, (f) => p50p95(f.timeBreakdown[tenant].waitingForBudgetMs)],
    [`${tenant} p50/p95 in model calls`, (f) => p50p95(f.timeBreakdown[tenant].inModelCallsMs)],
    [`${tenant} p50/p95 other`, (f) => p50p95(f.timeBreakdown[tenant].otherMs)],
  ]),
];

/**
 * `npm run bench -- fairness`: one tenant floods the bulk queue, another submits a few jobs through the same
 * window; with Temporal fairness keys (`fair`) and without (`fifo`), each on a private stack. Prints the table and
 * writes bench/results/fairness.json; the `fair` side's figures are the top-level ones.
 */
export async function runFairnessBenchmark(argv: string[]): Promise<void> {
  const settings = parseFairnessArgs(argv);
  const runId = randomUUID().slice(0, 8);
  const startedAt = new Date();
  const say = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const figures: Partial<Record<FairnessSide, FairnessFigures>> = {};
  const environment: Record<string, Record<string, string>> = {};
  for (const side of settings.sides) {
    const observation = await runFairnessSide(side, settings, runId, say);
    figures[side] = measureFairness(observation, settings);
    environment[side] = Object.fromEntries(Object.entries(observation.env).filter(([name]) => name !== 'REDIS_URL'));
  }
  const names = settings.sides;
  const width = Math.max(...ROWS.map(([label]) => label.length)) + 2;
  console.log(
    `\nFairness benchmark — ${settings.floodJobs} bulk jobs of one tenant queued, ${settings.smallJobs} of another arriving ` +
      `in the first half of a ${settings.windowMs / 1000} s window, weights ${settings.weights.flood}:${settings.weights.small}, ` +
      `${settings.simulator.inputTokensPerMinute.toLocaleString('en-US')} input tokens/min\n`,
  );
  console.log(''.padEnd(width) + names.map((name) => name.padEnd(28)).join(''));
  for (const [label, format] of ROWS)
    console.log(
      label.padEnd(width) + names.map((name) => format(figures[name] as FairnessFigures).padEnd(28)).join(''),
    );

  const fair = figures.fair;
  const report = {
    benchmark: 'fairness',
    command: `npm run bench -- fairness ${argv.join(' ')}`.trim(),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    settings: { ...settings, environment },
    targets: TARGET,
    ...(fair
      ? {
          smallTenantShareVsWeighted: fair.smallTenantShareVsWeighted,
          smallTenantP95WaitMs: fair.smallTenantP95WaitMs,
          targetMet:
            fair.smallTenantShareVsWeighted >= TARGET.smallTenantShareVsWeighted[0]! &&
            fair.smallTenantShareVsWeighted <= TARGET.smallTenantShareVsWeighted[1]!,
        }
      : {}),
    ...figures,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, 'fairness.json');
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path}`);
}
