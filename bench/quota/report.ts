import type { SideFigures } from './measure';

/** Issue 11's figures: the window is measured with at least 1,000 bulk jobs still waiting. */
export const TARGETS = {
  goodputRatio: 0.97,
  rate429: 0.005,
  interactiveP95WaitMs: 1_000,
  bulkQueuedAtWindowStart: 1_000,
  bulkShareOfIdleBudget: 0.9,
};

export function targetsMet(figures: SideFigures): Record<keyof typeof TARGETS, boolean> {
  return {
    goodputRatio: figures.goodputRatio >= TARGETS.goodputRatio,
    rate429: figures.rate429 <= TARGETS.rate429,
    interactiveP95WaitMs: figures.interactiveP95WaitMs <= TARGETS.interactiveP95WaitMs,
    bulkQueuedAtWindowStart: figures.bulkQueuedAtWindowStart >= TARGETS.bulkQueuedAtWindowStart,
    bulkShareOfIdleBudget: figures.bulkShareOfIdleBudget >= TARGETS.bulkShareOfIdleBudget,
  };
}

type Row = [label: string, format: (figures: SideFigures) => string];

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} ms` : 'n/a');
const perMin = (value: number) => `${value.toFixed(1)}/min`;

const ROWS: Row[] = [
  ['goodput (completed ÷ ceiling)', (f) => percent(f.goodputRatio)],
  ['completed jobs', (f) => `${perMin(f.completedJobsPerMin)} of ${perMin(f.ceilingJobsPerMin)}`],
  ['ceiling from the quota alone', (f) => perMin(f.quotaJobsPerMin)],
  [
    'provider input tokens left, start/end',
    (f) => `${f.providerInputLeft.atWindowStart} / ${f.providerInputLeft.atWindowEnd}`,
  ],
  ['provider calls answered 429', (f) => `${percent(f.rate429)} of ${f.providerCalls}`],
  ['wasted tokens (sent, refused)', (f) => f.wastedTokens.toLocaleString('en-US')],
  ['interactive p50 submit→done', (f) => ms(f.interactiveP50Ms)],
  ['interactive p95 submit→done', (f) => ms(f.interactiveP95Ms)],
  ['interactive p95 wait (no model time)', (f) => ms(f.interactiveP95WaitMs)],
  ['interactive unfinished at the end', (f) => `${f.interactiveUnfinished} of ${f.interactiveSubmitted}`],
  ['bulk throughput', (f) => perMin(f.bulkJobsPerMin)],
  ['bulk queued at window start / end', (f) => `${f.bulkQueuedAtWindowStart} / ${f.bulkQueuedAtWindowEnd}`],
  [
    'bulk share of an idle budget (held back)',
    (f) => `${percent(f.bulkShareOfIdleBudget)} (${percent(f.idleHeldBackShare)})`,
  ],
  ['jobs failed or dead-lettered', (f) => String(f.jobsFailed)],
];

/** The side-by-side table, with Slowlane's targets marked. */
export function table(sides: Partial<Record<'slowlane' | 'naive', SideFigures>>): string {
  const names = (['slowlane', 'naive'] as const).filter((name) => sides[name]);
  const width = Math.max(...ROWS.map(([label]) => label.length)) + 2;
  const column = 26;
  const lines = [''.padEnd(width) + names.map((name) => name.padEnd(column)).join('')];
  for (const [label, format] of ROWS) {
    lines.push(label.padEnd(width) + names.map((name) => format(sides[name] as SideFigures).padEnd(column)).join(''));
  }
  const slowlane = sides.slowlane;
  if (slowlane) {
    const met = targetsMet(slowlane);
    lines.push('');
    lines.push(
      `Slowlane targets: goodput ≥ ${percent(TARGETS.goodputRatio)} ${mark(met.goodputRatio)}, ` +
        `429s ≤ ${percent(TARGETS.rate429)} ${mark(met.rate429)}, ` +
        `interactive p95 wait ≤ ${ms(TARGETS.interactiveP95WaitMs)} ${mark(met.interactiveP95WaitMs)}, ` +
        `≥ ${TARGETS.bulkQueuedAtWindowStart} bulk queued ${mark(met.bulkQueuedAtWindowStart)}, ` +
        `bulk ≥ ${percent(TARGETS.bulkShareOfIdleBudget)} of an idle budget ${mark(met.bulkShareOfIdleBudget)}`,
    );
  }
  return lines.join('\n');
}

function mark(ok: boolean): string {
  return ok ? '(met)' : '(NOT met)';
}
