import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { percentile } from '../quota/measure';

/** One process's event-loop delay over the windows asked for (loop-delay.mjs wrote one line a second). */
export interface LoopDelay {
  process: string;
  /** Seconds of samples inside the windows. */
  seconds: number;
  /** Medians and 99th percentiles of the per-second figures, and the worst single delay, in ms. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Sample {
  at: number;
  p50: number;
  p99: number;
  max: number;
}

/** Reads every process's samples in `dir` and keeps those taken inside one of `windows` ([from, to] epoch ms). */
export async function readLoopDelays(dir: string, windows: Array<[number, number]>): Promise<LoopDelay[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
  return Promise.all(
    files.map(async (name) => {
      const samples = (await readFile(join(dir, name), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Sample)
        .filter((sample) => windows.some(([from, to]) => sample.at > from && sample.at <= to + 1000));
      return {
        process: name.replace(/\.jsonl$/, ''),
        seconds: samples.length,
        p50Ms: percentile(samples.map((sample) => sample.p50), 50),
        p99Ms: percentile(samples.map((sample) => sample.p99), 99),
        maxMs: Math.max(0, ...samples.map((sample) => sample.max)),
      };
    }),
  );
}
