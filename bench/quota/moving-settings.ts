import { readBenchFlags } from '../bench-flags';
import type { ProviderQuota } from '../budget-side';

/** What one run of `npm run bench -- quota --moving-limit` does; every number lands in bench/results/quota-moving.json. */
export interface MovingLimitSettings {
  /** Bulk jobs submitted before any worker runs: enough to keep the fleet at the ceiling to the end. */
  bulkJobs: number;
  /** The longest wait after the workers start for the provider's full first bucket to be spent (steady state). */
  warmUpLimitMs: number;
  /** The three measured phases: at the start-up limits, lowered, restored. */
  phases: { fullMs: number; loweredMs: number; restoredMs: number };
  /** The lowered limits are the start-up ones times this (another application takes the rest). */
  lowerScale: number;
  simulator: ProviderQuota;
  /** Bulk worker processes sharing one Redis budget. */
  workers: number;
  submitConcurrency: number;
  /** How often Redis is read to see when the fleet's budget adopted a change. */
  followPollMs: number;
  sides: Array<'slowlane' | 'naive'>;
}

export const MOVING_DEFAULTS: MovingLimitSettings = {
  bulkJobs: 450,
  warmUpLimitMs: 120_000,
  phases: { fullMs: 60_000, loweredMs: 90_000, restoredMs: 90_000 },
  lowerScale: 0.5,
  simulator: { inputTokensPerMinute: 60_000, outputTokensPerMinute: 100_000, requestsPerMinute: 1_000, latencyMs: 1_500, seed: 7 },
  workers: 3,
  submitConcurrency: 6,
  followPollMs: 100,
  sides: ['slowlane'],
};

const USAGE = `npm run bench -- quota --moving-limit [--bulk 450] [--warm-up 120s] [--full 60s] [--lowered 90s]
                           [--restored 90s] [--scale 0.5] [--itpm 60000] [--latency 1500ms] [--workers 3]
                           [--sides slowlane,naive]`;

export function parseMovingLimitArgs(argv: string[]): MovingLimitSettings {
  const flags = readBenchFlags(
    argv,
    ['bulk', 'warm-up', 'full', 'lowered', 'restored', 'scale', 'itpm', 'latency', 'workers', 'sides'],
    USAGE,
    ['moving-limit'],
  );
  const scale = Number(flags.text('scale') ?? MOVING_DEFAULTS.lowerScale);
  if (!(scale > 0 && scale < 1)) flags.refuse('--scale must be between 0 and 1 (a lowered limit)');
  const defaults = MOVING_DEFAULTS;
  return {
    ...defaults,
    bulkJobs: flags.count('bulk', defaults.bulkJobs, 1),
    warmUpLimitMs: flags.duration('warm-up', defaults.warmUpLimitMs),
    phases: {
      fullMs: flags.duration('full', defaults.phases.fullMs),
      loweredMs: flags.duration('lowered', defaults.phases.loweredMs),
      restoredMs: flags.duration('restored', defaults.phases.restoredMs),
    },
    lowerScale: scale,
    simulator: {
      ...defaults.simulator,
      inputTokensPerMinute: flags.count('itpm', defaults.simulator.inputTokensPerMinute, 1),
      latencyMs: flags.duration('latency', defaults.simulator.latencyMs),
    },
    workers: flags.count('workers', defaults.workers, 1),
    sides: flags.subset('sides', ['slowlane', 'naive'], defaults.sides),
  };
}
