import { parseArgs } from 'node:util';
import { parseDurationMs } from '../../lib/duration';
import { wholeNumberFlag } from '../whole-number-flag';

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
  const { values } = parseArgs({
    args: argv,
    options: {
      flood: { type: 'string' },
      small: { type: 'string' },
      window: { type: 'string' },
      grace: { type: 'string' },
      weights: { type: 'string' },
      itpm: { type: 'string' },
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
  const [flood, small] = (values.weights ?? '1,1').split(',').map(Number);
  if (!(flood !== undefined && small !== undefined && flood > 0 && small > 0))
    throw new Error(`--weights takes two positive numbers, the flooding tenant's first\n${USAGE}`);
  const sides = (values.sides ?? DEFAULT_SETTINGS.sides.join(',')).split(',');
  if (sides.some((side) => side !== 'fair' && side !== 'fifo'))
    throw new Error(`--sides takes fair and/or fifo\n${USAGE}`);
  return {
    ...DEFAULT_SETTINGS,
    floodJobs: count(values.flood, DEFAULT_SETTINGS.floodJobs, 'flood'),
    smallJobs: count(values.small, DEFAULT_SETTINGS.smallJobs, 'small'),
    windowMs: duration(values.window, DEFAULT_SETTINGS.windowMs, 'window'),
    graceMs: duration(values.grace, DEFAULT_SETTINGS.graceMs, 'grace'),
    weights: { flood, small },
    simulator: {
      ...DEFAULT_SETTINGS.simulator,
      inputTokensPerMinute: count(values.itpm, DEFAULT_SETTINGS.simulator.inputTokensPerMinute, 'itpm'),
    },
    sides: sides as FairnessSide[],
  };
}
