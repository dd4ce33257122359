import { readBenchFlags } from '../bench-flags';

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
  /**
   * Whether bulk jobs may take the Message Batches lane (the product's default). Off by default: this bench
   * measures the live path at the quota ceiling; on shows what the lane does to interactive waits beside it.
   */
  batchLane: boolean;
}

export const DEFAULT_SETTINGS: QuotaBenchSettings = {
  bulkJobs: 1_300,
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
  batchLane: false,
};

const USAGE = `npm run bench -- quota [--bulk 1300] [--interactive 24] [--window 120s] [--idle 60s] [--grace 60s] [--warm-up 120s]
                           [--itpm 60000] [--latency 1500ms] [--share 0.25] [--sides slowlane,naive]
                           [--batch-lane off|on]`;

export function parseQuotaArgs(argv: string[]): QuotaBenchSettings {
  const flags = readBenchFlags(
    argv,
    ['bulk', 'interactive', 'window', 'idle', 'grace', 'warm-up', 'itpm', 'latency', 'share', 'sides', 'batch-lane'],
    USAGE,
  );
  const share = Number(flags.text('share') ?? DEFAULT_SETTINGS.interactiveShare);
  if (!(share >= 0 && share <= 0.9)) flags.refuse('--share must be between 0 and 0.9');
  return {
    ...DEFAULT_SETTINGS,
    bulkJobs: flags.count('bulk', DEFAULT_SETTINGS.bulkJobs),
    interactiveJobs: flags.count('interactive', DEFAULT_SETTINGS.interactiveJobs),
    windowMs: flags.duration('window', DEFAULT_SETTINGS.windowMs),
    idleMs: flags.duration('idle', DEFAULT_SETTINGS.idleMs),
    graceMs: flags.duration('grace', DEFAULT_SETTINGS.graceMs),
    warmUpLimitMs: flags.duration('warm-up', DEFAULT_SETTINGS.warmUpLimitMs),
    simulator: {
      ...DEFAULT_SETTINGS.simulator,
      inputTokensPerMinute: flags.count('itpm', DEFAULT_SETTINGS.simulator.inputTokensPerMinute),
      latencyMs: flags.duration('latency', DEFAULT_SETTINGS.simulator.latencyMs),
    },
    interactiveShare: share,
    sides: flags.subset('sides', ['slowlane', 'naive'], DEFAULT_SETTINGS.sides),
    batchLane: flags.choice('batch-lane', ['off', 'on'], 'off') === 'on',
  };
}
