import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readBenchFlags } from '../bench-flags';
import { startBenchStack } from '../bench-stack';
import { buildArtifact } from '../../local/build/build';
import { workerIsPolling } from '../../local/stack/temporal-setup';
import { WORKFLOW_BUNDLE_FILE } from '../../workers/create-workers';
import { percentile } from '../quota/measure';

const REPO_ROOT = join(__dirname, '..', '..');

/** The two ways a worker process starts: from source (tsx, webpack bundles the workflows) and from the build. */
const MODES = {
  source: ['--import', 'tsx', join(REPO_ROOT, 'workers', 'main.ts')],
  built: [join(REPO_ROOT, 'dist', 'workers', 'main.js')],
} as const;
type Mode = keyof typeof MODES;

const USAGE = 'usage: npm run bench -- worker-start [--runs 5]';

/**
 * `npm run bench -- worker-start [--runs N]`: seconds from spawning a worker process to the server seeing it poll
 * its task queue, started from source (`node --import tsx workers/main.ts`, bundling the workflows at start)
 * and from the build (`node dist/workers/main.js`, prebuilt bundle), alternating on one stack in one run.
 * Builds dist/ first when it has no workflow bundle.
 */
export async function runWorkerStartBenchmark(argv: string[]): Promise<void> {
  const runs = readBenchFlags(argv, ['runs'], USAGE).count('runs', 5, 1);
  if (!existsSync(join(REPO_ROOT, 'dist', WORKFLOW_BUNDLE_FILE))) await buildArtifact();

  const { stack, stop } = await startBenchStack('worker-start', { without: ['worker', 'api'] });
  const seconds: Record<Mode, number[]> = { source: [], built: [] };
  try {
    console.log(`worker-start: ${runs} runs of each, alternating, on ${process.version}`);
    for (let run = 0; run < runs; run++) {
      for (const mode of Object.keys(MODES) as Mode[]) {
        const elapsed = await timeToPolling(mode, stack.productEnv, stack.urls.temporal, stack.namespace);
        seconds[mode].push(elapsed);
        console.log(`  ${mode.padEnd(6)} run ${run + 1}: ${elapsed.toFixed(1)} s`);
      }
    }
  } finally {
    await stop();
  }
  const summary = Object.fromEntries(
    (Object.keys(MODES) as Mode[]).map((mode) => [
      mode,
      {
        medianS: round(percentile(seconds[mode], 50)),
        minS: round(Math.min(...seconds[mode])),
        maxS: round(Math.max(...seconds[mode])),
        runsS: seconds[mode].map(round),
      },
    ]),
  );
  console.log(JSON.stringify(summary, null, 2));
  // One entry per Node major, so the figures on 20, 22 and 24 sit side by side.
  const resultsFile = join(REPO_ROOT, 'bench', 'results', 'worker-start.json');
  const results = existsSync(resultsFile)
    ? (JSON.parse(await readFile(resultsFile, 'utf8')) as Record<string, unknown>)
    : {};
  results[`node${process.versions.node.split('.')[0]}`] = {
    node: process.version,
    runs,
    measuredAt: new Date().toISOString(),
    ...summary,
  };
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
}

/** Spawn → the server lists this pid among the activity pollers; then SIGTERM and wait for it to drain and exit. */
async function timeToPolling(
  mode: Mode,
  env: Record<string, string>,
  address: string,
  namespace: string,
): Promise<number> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, MODES[mode], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, WORKER_PRIORITIES: 'interactive', METRICS_ENABLED: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode} worker exited with code ${child.exitCode} before polling`);
      if (await workerIsPolling(address, namespace, child.pid).catch(() => false))
        return (performance.now() - startedAt) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    stop(child);
    await exited;
  }
}

function stop(child: ChildProcess): void {
  if (child.exitCode === null) child.kill('SIGTERM');
}

const round = (value: number) => Math.round(value * 10) / 10;
