import { readBenchFlags } from '../bench-flags';
import type { RedisOutagePlan } from './redis-outages';

/** What one run of `npm run bench -- chaos` does; every number lands in bench/results/chaos.json. */
export interface ChaosSettings {
  /** Jobs submitted at once before the chaos starts: all of them in flight together. */
  jobs: number;
  /** SIGKILLs of worker processes, one every killGapMs (random within the range), on a worker that polls. */
  workerKills: number;
  killGapMs: [min: number, max: number];
  /** SIGKILLs of the Temporal dev server, spread over the kills; the supervisor restarts it on its SQLite file. */
  temporalRestarts: number;
  /**
   * SIGKILLs of the Redis behind the workers' token budget and spend totals, counted from the start of the chaos,
   * each restarted on the same port after its outage. One outage outlasts a model step's whole round of attempts.
   */
  redisOutages: RedisOutagePlan[];
  /** Jobs erased while they run (`DELETE /jobs/:id`), each erasureGapMs after the previous one, among the kills. */
  erasures: number;
  erasureGapMs: [min: number, max: number];
  /** Provider calls answered with an error: split evenly over 429 (with retry-after), 529 and 500. */
  providerFaultRate: number;
  /** Ledger posts that fail: refused before the commit, or committed and then answered 500 or cut off. */
  ledgerFaultRate: number;
  /** Model latency of every call (the simulator's base latency). */
  modelLatencyMs: number;
  /** After the last kill, how long jobs may take to settle before the rest count as stuck. */
  settleLimitMs: number;
  /**
   * The whole run's bound: jobs still open when the settle wait would pass it count as stuck, and the naive side
   * stops taking new requests at it, so the report is always written.
   */
  budgetMs: number;
  /** Simultaneous uploads, and simultaneous requests of the naive side. */
  concurrency: number;
  /** Seeds the kill moments and the simulator's fault draws, so a run can be repeated. */
  seed: number;
}

export const DEFAULT_SETTINGS: ChaosSettings = {
  jobs: 240,
  workerKills: 22,
  killGapMs: [6_000, 12_000],
  temporalRestarts: 2,
  // Between the server restarts (kills 7 and 14 come about 60 s and 125 s in), the second past a model step's
  // round of six attempts (about a minute of backoff).
  redisOutages: [
    { afterMs: 25_000, forMs: 20_000 },
    { afterMs: 70_000, forMs: 75_000 },
  ],
  erasures: 12,
  // Spread over about the chaos's first two minutes, so erasures meet worker kills and server restarts.
  erasureGapMs: [4_000, 12_000],
  providerFaultRate: 0.1,
  ledgerFaultRate: 0.1,
  modelLatencyMs: 300,
  settleLimitMs: 240_000,
  budgetMs: 600_000,
  concurrency: 8,
  seed: 1203,
};

const USAGE = 'npm run bench -- chaos [--jobs 240] [--kills 22] [--temporal-restarts 2] [--redis-outages 2] [--erasures 12] [--seed 1203]';

export function parseChaosArgs(argv: string[]): ChaosSettings {
  const flags = readBenchFlags(argv, ['jobs', 'kills', 'temporal-restarts', 'redis-outages', 'erasures', 'seed'], USAGE);
  return {
    ...DEFAULT_SETTINGS,
    jobs: flags.count('jobs', DEFAULT_SETTINGS.jobs),
    workerKills: flags.count('kills', DEFAULT_SETTINGS.workerKills),
    temporalRestarts: flags.count('temporal-restarts', DEFAULT_SETTINGS.temporalRestarts),
    // Fewer outages take the first ones of the plan; 0 runs the chaos without killing Redis.
    redisOutages: DEFAULT_SETTINGS.redisOutages.slice(0, flags.count('redis-outages', DEFAULT_SETTINGS.redisOutages.length)),
    erasures: flags.count('erasures', DEFAULT_SETTINGS.erasures),
    seed: flags.count('seed', DEFAULT_SETTINGS.seed),
  };
}

/** A small seeded generator (mulberry32): the same seed kills at the same moments. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
