import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CpuReading } from '../cpu-meter';
import type { LoopDelay } from './loop-delay';

export interface ServerFigures {
  jobType: string;
  jobs: number;
  submitters: number;
  activitiesPerJob: number;
  /** Rounds of jobs ÷ rounds jobs, product and bare alternating A B B A … (--rounds). */
  rounds: number;
  settledPerSec: number;
  bareSettledPerSec: number;
  /** settledPerSec ÷ bareSettledPerSec, both measured in this run on this server (target ≥ 0.9). */
  ratio: number;
  /** POST /jobs while `submitters` closed-loop callers flood the API. */
  floodAcceptP50Ms: number;
  floodAcceptP99Ms: number;
  /** POST /jobs offered open-loop at openLoopPerSec (80 % of settledPerSec) while the workers run (target p99 ≤ 100 ms). */
  openLoopPerSec: number;
  openLoopJobs: number;
  acceptP50Ms: number;
  acceptP99Ms: number;
  /** Jobs that ended failed (a healthy run has none). */
  failed: number;
  /**
   * CPU ms per job during each side's rounds: `product` is the API and workers, `server` the Temporal server, `bench`
   * this process (on the bare side: the bare worker and its client; on the product side: the submitters and waits).
   */
  cpuMsPerJob: { product: CpuReading; bare: CpuReading };
  /** --timeline: jobs settled in each second of each round. */
  timeline?: { product: number[][]; bare: number[][] };
  /** --loop-delay: each product process's event-loop delay during the product's rounds. */
  loopDelay?: LoopDelay[];
  finishedAt: string;
  command: string;
}

const RESULTS_FILE = join(__dirname, '..', 'results', 'throughput.json');

/**
 * bench/results/throughput.json keeps one entry per server and job type, so a run on one server leaves the
 * other's latest figures in place.
 */
export async function writeServerFigures(server: string, figures: ServerFigures): Promise<void> {
  const previous = existsSync(RESULTS_FILE)
    ? (JSON.parse(await readFile(RESULTS_FILE, 'utf8')) as { servers?: Record<string, Record<string, ServerFigures>> })
    : {};
  const servers = previous.servers ?? {};
  servers[server] = { ...servers[server], [figures.jobType]: figures };
  await mkdir(join(__dirname, '..', 'results'), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify({ benchmark: 'throughput', servers }, null, 2)}\n`);
}
