import { readBenchFlags } from '../bench-flags';

export type FairnessSide = 'fair' | 'fifo';

/** What one run of `npm run bench -- fairness` does; every number lands in bench/results/fairness.json. */
export interface FairnessBenchSettings {
  /** Bulk jobs the flooding tenant submits before any worker runs. */
  floodJobs: number;
  /** Bulk jobs the small tenant submits at an even pace through the first half of the window. */
  smallJobs: number;
  windowMs: number;
  /** After the window, how long to wait for the small tenant's jobs before they count as unfinished. */
  graceMs: number;
  /** Fairness weights of the flooding and the small tenant (SLOWLANE_TENANTS `fairnessWeight`). */
  weights: { flood: number; small: number };
  submitConcurrency: number;
  simulator: {
    inputTokensPerMinute: number;
    outputTokensPerMinute: number;
    requestsPerMinute: number;
    latencyMs: number;
  };
  sides: FairnessSide[];
}

export const DEFAULT_SETTINGS: FairnessBenchSettings = {
  floodJobs: 1_000,
  smallJobs: 50,
  windowMs: 180_000,
  graceMs: 60_000,
  weights: { flood: 1, small: 1 },
  submitConcurrency: 6,
  // Input binds at ~20 jobs a minute: low enough that the budget, not the shared machine's CPU, is the bottleneck.
  simulator: {
    inputTokensPerMinute: 20_000,
    outputTokensPerMinute: 100_000,
    requestsPerMinute: 1_000,
    latencyMs: 1_500,
  },
  sides: ['fair', 'fifo'],
};

const USAGE = `npm run bench -- fairness [--flood 1000] [--small 50] [--window 180s] [--grace 60s] [--weights 1,1]
                              [--itpm 20000] [--sides fair,fifo]`;

export function parseFairnessArgs(argv: string[]): FairnessBenchSettings {
  const flags = readBenchFlags(argv, ['flood', 'small', 'window', 'grace', 'weights', 'itpm', 'sides'], USAGE);
  const [flood, small] = (flags.text('weights') ?? '1,1').split(',').map(Number);
  if (!(flood !== undefined && small !== undefined && flood > 0 && small > 0))
    return flags.refuse("--weights takes two positive numbers, the flooding tenant's first");
  return {
    ...DEFAULT_SETTINGS,
    floodJobs: flags.count('flood', DEFAULT_SETTINGS.floodJobs),
    smallJobs: flags.count('small', DEFAULT_SETTINGS.smallJobs),
    windowMs: flags.duration('window', DEFAULT_SETTINGS.windowMs),
    graceMs: flags.duration('grace', DEFAULT_SETTINGS.graceMs),
    weights: { flood, small },
    simulator: {
      ...DEFAULT_SETTINGS.simulator,
      inputTokensPerMinute: flags.count('itpm', DEFAULT_SETTINGS.simulator.inputTokensPerMinute),
    },
    sides: flags.subset('sides', ['fair', 'fifo'], DEFAULT_SETTINGS.sides),
  };
}
