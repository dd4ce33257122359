import { parseArgs } from 'node:util';
import { parseDurationMs } from '../../lib/duration';
import { wholeNumberFlag } from '../whole-number-flag';

/** What one run of `npm run bench -- quota` does; every number lands in bench/results/quota.json. */
export interface QuotaBenchSettings {
  /** Bulk jobs submitted before the measurement window opens: the backlog. */
  bulkJobs: number;
  /** Interactive jobs submitted at an even pace during the window, while the backlog is large. */
  interactiveJobs: number;
  windowMs: number;
  /** Before the window, a spell with the backlog and no interactive job: what bulk makes of an idle budget. */
  idleMs: number;
  /** After the window, how long to wait for interactive jobs still running before they count as unfinished. */
  graceMs: number;
  /** The longest wait after submitting the backlog for the provider's bucket to be spent (steady state). */
  warmUpLimitMs: number;
  /** Simultaneous uploads while the backlog is submitted. */
  submitConcurrency: number;
  simulator: {
    inputTokensPerMinute: number;
    outputTokensPerMinute: number;
    requestsPerMinute: number;
    /** Fixed latency of every answer (no per-token part), so model time is known exactly. */
    latencyMs: number;
    seed: number;
  };
  /** The reserved interactive share of the Slowlane side. */
  interactiveShare: number;
  /** Worker processes on each side. */
  workers: number;
  /** The naive side's activity slots per worker: the project's default before the budget. */
  naiveSlotsPerWorker: number;
  sides: Array<'slowlane' | 'naive'>;
}

export const DEFAULT_SETTINGS: QuotaBenchSettings = {
  bulkJobs: 1_200,
  interactiveJobs: 24,
  windowMs: 120_000,
  idleMs: 60_000,
  graceMs: 60_000,
  warmUpLimitMs: 120_000,
  submitConcurrency: 6,
  simulator: {
    inputTokensPerMinute: 60_000,
    outputTokensPerMinute: 100_000,
    requestsPerMinute: 1_000,
    latencyMs: 1_500,
    seed: 7,
  },
  interactiveShare: 0.25,
  workers: 2,
  naiveSlotsPerWorker: 20,
  sides: ['slowlane', 'naive'],
};

const USAGE = `npm run bench -- quota [--bulk 1200] [--interactive 24] [--window 120s] [--idle 60s] [--grace 60s] [--warm-up 120s]
                           [--itpm 60000] [--latency 1500ms] [--share 0.25] [--sides slowlane,naive]`;

export function parseQuotaArgs(argv: string[]): QuotaBenchSettings {
  const { values } = parseArgs({
    args: argv,
    options: {
      bulk: { type: 'string' },
      interactive: { type: 'string' },
      window: { type: 'string' },
      idle: { type: 'string' },
      grace: { type: 'string' },
      'warm-up': { type: 'string' },
      itpm: { type: 'string' },
      latency: { type: 'string' },
      share: { type: 'string' },
      sides: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const count = (value: string | undefined, fallback: number, name: string) =>
    wholeNumberFlag(value, fallback, name, USAGE);
  const duration = (value: string | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    const parsed = parseDurationMs(value);
    if (parsed === undefined) throw new Error(`--${name} must be a duration such as 90s\n${USAGE}`);
    return parsed;
  };
  const sides = (values.sides ?? DEFAULT_SETTINGS.sides.join(',')).split(',');
  if (sides.some((side) => side !== 'slowlane' && side !== 'naive'))
    throw new Error(`--sides takes slowlane and/or naive\n${USAGE}`);
  const share = values.share === undefined ? DEFAULT_SETTINGS.interactiveShare : Number(values.share);
  if (!(share >= 0 && share <= 0.9)) throw new Error(`--share must be between 0 and 0.9\n${USAGE}`);
  return {
    ...DEFAULT_SETTINGS,
    bulkJobs: count(values.bulk, DEFAULT_SETTINGS.bulkJobs, 'bulk'),
    interactiveJobs: count(values.interactive, DEFAULT_SETTINGS.interactiveJobs, 'interactive'),
    windowMs: duration(values.window, DEFAULT_SETTINGS.windowMs, 'window'),
    idleMs: duration(values.idle, DEFAULT_SETTINGS.idleMs, 'idle'),
    graceMs: duration(values.grace, DEFAULT_SETTINGS.graceMs, 'grace'),
    warmUpLimitMs: duration(values['warm-up'], DEFAULT_SETTINGS.warmUpLimitMs, 'warm-up'),
    simulator: {
      ...DEFAULT_SETTINGS.simulator,
      inputTokensPerMinute: count(values.itpm, DEFAULT_SETTINGS.simulator.inputTokensPerMinute, 'itpm'),
      latencyMs: duration(values.latency, DEFAULT_SETTINGS.simulator.latencyMs, 'latency'),
    },
    interactiveShare: share,
    sides: sides as QuotaBenchSettings['sides'],
  };
}
