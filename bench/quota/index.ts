import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMovingLimitBenchmark } from './moving-index';
import { measureSide, type SideFigures, tokensPerJob } from './measure';
import { table, TARGETS, targetsMet } from './report';
import { parseQuotaArgs } from './settings';
import { runSide, type SideObservation } from './side';

const RESULTS_DIR = join(__dirname, '..', 'results');

/**
 * `npm run bench -- quota`: the same backlog and the same interactive arrivals against a small provider quota,
 * first through Slowlane as built, then the naive way (no budget, the SDK's own retries, one queue, the same
 * workers), each on a private stack. Prints the table and writes bench/results/quota.json (quota-batch-lane.json
 * with `--batch-lane on`). With `--moving-limit`, the provider's limits move mid-run instead (moving-index.ts).
 */
export async function runQuotaBenchmark(argv: string[]): Promise<void> {
  if (argv.includes('--moving-limit')) return runMovingLimitBenchmark(argv);
  const settings = parseQuotaArgs(argv);
  const runId = randomUUID().slice(0, 8);
  const startedAt = new Date();
  const say = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const observations: SideObservation[] = [];
  for (const side of settings.sides) observations.push(await runSide(side, settings, runId, say));

  const perJob = tokensPerJob(observations);
  if (!perJob) throw new Error('no job finished on any side, so the tokens per job are unknown');
  const figures: Partial<Record<'slowlane' | 'naive', SideFigures>> = {};
  for (const observation of observations) figures[observation.side] = measureSide(observation, settings, perJob);

  console.log(
    `\nQuota benchmark — ${settings.simulator.inputTokensPerMinute.toLocaleString('en-US')} input tokens/min, ` +
      `${settings.simulator.latencyMs} ms per call, ${settings.bulkJobs} bulk + ${settings.interactiveJobs} interactive jobs, ` +
      `${settings.windowMs / 1000} s window, ${perJob.input.toFixed(0)} input + ${perJob.output.toFixed(0)} output tokens per job\n`,
  );
  console.log(table(figures));

  const report = {
    benchmark: 'quota',
    command: `npm run bench -- quota ${argv.join(' ')}`.trim(),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    settings: {
      ...settings,
      tokensPerJob: perJob,
      environment: Object.fromEntries(observations.map((observation) => [observation.side, observation.env])),
    },
    targets: TARGETS,
    ...(figures.slowlane ? { slowlaneTargetsMet: targetsMet(figures.slowlane) } : {}),
    ...figures,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  // With the lane on, the record of the live path (quota.json) is kept.
  const path = join(RESULTS_DIR, settings.batchLane ? 'quota-batch-lane.json' : 'quota.json');
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path}`);
}
