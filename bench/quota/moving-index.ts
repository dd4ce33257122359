import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MOVING_TARGETS, type MovingFigures, movingFigures, movingTargetsMet } from './moving-measure';
import { parseMovingLimitArgs } from './moving-settings';
import { runMovingSide } from './moving-side';

const RESULTS_PATH = join(__dirname, '..', 'results', 'quota-moving.json');

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const followed = (ms: number | null) => (ms === null ? 'not within the phase' : `${ms} ms`);

function describe(side: string, figures: MovingFigures): string {
  const met = movingTargetsMet(figures);
  const lines = [
    `${side}: goodput ${percent(figures.goodput)} of the moving ceiling (${figures.admittedInputTokens} of ` +
      `${figures.offeredInputTokens} input tokens offered) ${met.goodput ? '(met)' : '(NOT met)'}`,
    `${side}: 429s ${percent(figures.rate429)} (${figures.refused429} of ${figures.providerCalls} calls) ` +
      `${met.rate429 ? '(met)' : '(NOT met)'}`,
    `${side}: fleet followed the lowering in ${followed(figures.followMs.lowered)}, the restore in ` +
      `${followed(figures.followMs.restored)} ${met.followMs ? '(met)' : '(NOT met)'}`,
    `${side}: ${figures.jobs.completedInPhases} jobs completed in the phases ` +
      `(${figures.jobs.completedPerMinute.toFixed(1)}/min), ${figures.jobs.failed} failed or dead-lettered by the end`,
  ];
  for (const phase of figures.phases) {
    lines.push(
      `  ${phase.name.padEnd(9)} ${String(phase.seconds.toFixed(0)).padStart(4)} s at ${phase.inputLimitPerMinute}/min: ` +
        `${phase.admittedInputTokens} of ${phase.offeredInputTokens} offered (${percent(phase.goodput)}), ` +
        `${phase.refused429} of ${phase.providerCalls} calls answered 429`,
    );
  }
  return lines.join('\n');
}

/**
 * `npm run bench -- quota --moving-limit`: three bulk worker processes on one Redis budget, a backlog that keeps
 * them at the provider's ceiling, and the provider's limits lowered mid-run and restored. Writes
 * bench/results/quota-moving.json.
 */
export async function runMovingLimitBenchmark(argv: string[]): Promise<void> {
  const settings = parseMovingLimitArgs(argv);
  const runId = randomUUID().slice(0, 8);
  const startedAt = new Date();
  const say = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const figures: Record<string, MovingFigures> = {};
  const environment: Record<string, Record<string, string>> = {};
  for (const side of settings.sides) {
    const observation = await runMovingSide(side, settings, runId, say);
    figures[side] = movingFigures(observation.edges, observation.calls, observation.followMs, observation.jobs);
    environment[side] = observation.env;
    console.log(`\n${describe(side, figures[side])}\n`);
  }
  const report = {
    benchmark: 'quota-moving',
    command: `npm run bench -- quota ${argv.join(' ')}`.trim(),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    settings: { ...settings, environment },
    targets: MOVING_TARGETS,
    ...(figures.slowlane ? { slowlaneTargetsMet: movingTargetsMet(figures.slowlane) } : {}),
    ...figures,
  };
  await mkdir(join(RESULTS_PATH, '..'), { recursive: true });
  await writeFile(RESULTS_PATH, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${RESULTS_PATH}`);
}
