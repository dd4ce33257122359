import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { reapOnExit, signalChild } from './reaper';
import type { TemporalKind } from './postgres-temporal';
import { freeStackPorts, type Stack, startStack } from './stack';
import { localPaths } from './local-paths';
import { LOCAL_PUSH_ENV } from './local-secrets';
import { TEST_TENANT_IDS } from './test-tenants';
import { ensureChromium, ensureSpeechTools } from './tools';

const REPO_ROOT = join(__dirname, '..', '..');

/**
 * Test files in tier order. `npm test -- unit workflow` runs only those tiers, `npm test -- webhooks` only the
 * files whose path contains "webhooks", and `--no-static` skips the type check and lint.
 */
const TIERS = ['unit', 'workflow', 'integration', 'replay', 'browser', 'fuzz', 'cluster'];

/**
 * The `cluster` tier: these integration files run a second time, unchanged, against the Temporal cluster on
 * PostgreSQL (docs/deployment.md). A few files, so the tier proves the production-shaped server in minutes.
 */
export const CLUSTER_TIER_FILES = ['job-lifecycle', 'dead-letter-replay', 'reliability-server-restart'].map((name) =>
  join('test', 'integration', `${name}.test.ts`),
);

async function findTests(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return findTests(path);
      return Promise.resolve(entry.name.endsWith('.test.ts') ? [path] : []);
    }),
  );
  return nested.flat().sort();
}

function runQuiet(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Types and lint first: a type error or a floating promise fails the run before any server starts. */
async function staticChecks(): Promise<void> {
  const bin = (name: string) => join(REPO_ROOT, 'node_modules', '.bin', name);
  const [types, browserTypes, lint] = await Promise.all([
    runQuiet(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
    // The reviewer page's browser code has its own tsconfig (DOM types, bundler resolution).
    runQuiet(bin('tsc'), ['--noEmit', '-p', join('reviewer', 'browser', 'tsconfig.json')]),
    runQuiet(bin('eslint'), ['.']),
  ]);
  const typesOk = types.code === 0 && browserTypes.code === 0;
  console.log(`[static] tsc --noEmit: ${typesOk ? 'ok' : 'FAILED'}; eslint: ${lint.code === 0 ? 'ok' : 'FAILED'}`);
  if (!typesOk || lint.code !== 0) {
    console.log(types.output + browserTypes.output + lint.output);
    console.log(summaryLine([], 1));
    process.exit(1);
  }
}

/** The part of Jest's `--json` result the closing line needs. */
export interface JestCounts {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  /** Test files that failed outside any test: an import error, a syntax error; they count no failed test. */
  numRuntimeErrorTestSuites: number;
}

/**
 * The plain closing line, over every Jest run of `npm test` (unit, then the rest); a failed run never claims
 * 0 failures, whatever the counts say.
 */
export function summaryLine(runs: Partial<JestCounts>[], exitCode: number): string {
  const sum = (key: keyof JestCounts) => runs.reduce((total, run) => total + (run[key] ?? 0), 0);
  const failed = sum('numFailedTests') + sum('numRuntimeErrorTestSuites');
  return `${sum('numPassedTests')} passed, ${exitCode === 0 ? failed : Math.max(1, failed)} failed, ${sum('numPendingTests') + sum('numTodoTests')} skipped`;
}

/**
 * `npm test`: prepares the tools, starts a private stack on free ports with a fresh data folder (so it never
 * collides with a running `npm start`), runs every tier with Jest (jest.config.js) against it, and stops it.
 * Unit and replay tests need no stack; a run of only those starts none.
 */
export async function runTests(args: string[]): Promise<void> {
  const startedAt = Date.now();
  const skipStatic = args.includes('--no-static');
  const selectors = args.filter((arg) => arg !== '--no-static');
  const tiers = selectors.filter((arg) => TIERS.includes(arg));
  const patterns = selectors.filter((arg) => !TIERS.includes(arg));
  const chosenTiers = tiers.length > 0 ? tiers : TIERS;
  const all = (await Promise.all(chosenTiers.map((tier) => findTests(join(REPO_ROOT, 'test', tier))))).flat();
  // Matched against the path inside the repository, so the clone's own folder name cannot match everything.
  const matches = (file: string) => patterns.length === 0 || patterns.some((pattern) => file.includes(pattern));
  const files = all.map((file) => relative(REPO_ROOT, file)).filter(matches);
  const clusterFiles = chosenTiers.includes('cluster') ? CLUSTER_TIER_FILES.filter(matches) : [];
  if (files.length + clusterFiles.length === 0) throw new Error(`no test files match ${selectors.join(' ')}`);
  const inTier = (file: string, tier: string) => file.startsWith(join('test', tier, sep));
  const needsStack = files.some((file) => !inTier(file, 'unit') && !inTier(file, 'replay'));

  if (!skipStatic) await staticChecks();
  const { toolCacheDir } = localPaths();
  const log = (line: string) => console.log(`[stack] ${line}`);

  // Ctrl-C, or SIGTERM passed on by bootstrap.js: stop the tests, then the stack, and leave no data folder behind.
  const interrupted = new AbortController();
  let interruptedBy: NodeJS.Signals = 'SIGINT';
  let tests: ChildProcess | undefined;
  const interrupt = (signal: NodeJS.Signals) => {
    if (interrupted.signal.aborted) return;
    log(`${signal}: stopping the tests and the stack`);
    interruptedBy = signal;
    interrupted.abort();
    if (tests) signalChild(tests, signal, true);
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);

  const dataDir = await mkdtemp(join(tmpdir(), 'slowlane-test-'));
  let exitCode = 1;
  const counts: Partial<JestCounts>[] = [];
  try {
    if (files.some((file) => inTier(file, 'browser'))) await ensureChromium(log);
    // Unit files start simulators of their own too, and those transcribe with pocketsphinx (no stack to install it).
    await ensureSpeechTools(log);
    const startTestStack = async (temporal: TemporalKind, stackDataDir: string, fileCount: number) => {
      const stackStartedAt = Date.now();
      log(`starting a test stack (Temporal: ${temporal}) in ${stackDataDir}`);
      const stack = await startStack({
        dataDir: stackDataDir,
        ports: await freeStackPorts(),
        toolCacheDir,
        pathEnv: process.env.PATH ?? '',
        temporal,
        // Fresh credentials for every run (kept in its data folder): the tests read them from SLOWLANE_TEST_PRODUCT_ENV.
        tenantIds: TEST_TENANT_IDS,
        // Call jobs: a test call of half a minute is cut into a few chunks, and a quarter hour is over the limit.
        productEnv: { LOG_LEVEL: 'warn', ...LOCAL_PUSH_ENV, CALL_CHUNK_SECONDS: '10', CALL_CHUNK_OVERLAP_SECONDS: '1', CALL_MAX_DURATION_SECONDS: '900' },
        report: log,
        onUnexpectedExit: (name, code, logTail) => log(`${name} exited unexpectedly (code ${code}):\n${logTail}`),
        onRestart: (name, code, delayMs) =>
          log(`${name} exited unexpectedly (code ${code}); restarting it in ${delayMs / 1000}s`),
        signal: interrupted.signal,
      });
      log(`stack ready in ${((Date.now() - stackStartedAt) / 1000).toFixed(1)}s; running ${fileCount} test files`);
      return stack;
    };
    // Unit files share nothing, so two Jest workers run them; the other tiers share the one stack (and its
    // Temporal server, worker and ledger counts), so they run one file at a time, as they always did. The
    // cluster tier gets a stack of its own, with the Temporal cluster on PostgreSQL, after the dev-server one.
    const unit = files.filter((file) => inTier(file, 'unit'));
    const rest = files.filter((file) => !inTier(file, 'unit'));
    const groups = [
      {
        temporal: 'dev' as const,
        dataDir,
        needsStack,
        runs: [
          { name: 'unit', files: unit, workers: ['--maxWorkers=2'] },
          { name: 'stack', files: rest, workers: ['--runInBand'] },
        ],
      },
      {
        temporal: 'cluster' as const,
        dataDir: join(dataDir, 'cluster'),
        needsStack: true,
        runs: [{ name: 'cluster', files: clusterFiles, workers: ['--runInBand'] }],
      },
    ];
    exitCode = 0;
    for (const group of groups) {
      const runs = group.runs.filter((run) => run.files.length > 0);
      if (runs.length === 0) continue;
      interrupted.signal.throwIfAborted();
      const fileCount = runs.reduce((total, run) => total + run.files.length, 0);
      const stack = group.needsStack ? await startTestStack(group.temporal, group.dataDir, fileCount) : undefined;
      try {
        await runJestRuns(runs, stack, group.dataDir);
      } finally {
        await stack?.stop();
      }
    }
  } catch (error) {
    exitCode = exitCode === 0 ? 1 : exitCode;
    if (!interrupted.signal.aborted) console.error(error instanceof Error ? error.message : error);
  }

  async function runJestRuns(
    runs: Array<{ name: string; files: string[]; workers: string[] }>,
    stack: Stack | undefined,
    stackDataDir: string,
  ) {
    for (const run of runs) {
      interrupted.signal.throwIfAborted();
      const resultFile = join(dataDir, `jest-${run.name}.json`);
      const code = await new Promise<number>((resolve, reject) => {
        tests = spawn(
          process.execPath,
          [
            // Jest runs ESM only on vm modules: unpdf (ESM) and the browser validator are loaded with import().
            '--experimental-vm-modules',
            '--disable-warning=ExperimentalWarning',
            join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
            '--config',
            join(REPO_ROOT, 'jest.config.js'),
            ...run.workers,
            '--json',
            `--outputFile=${resultFile}`,
            '--runTestsByPath',
            ...run.files,
          ],
          {
            cwd: REPO_ROOT,
            stdio: ['ignore', 'inherit', 'inherit'],
            // Its own process group: an interrupt reaches Jest and the test file it is running, whose
            // afterAll hooks and child processes must not outlive the stack they use.
            detached: true,
            env: { ...process.env, LOG_LEVEL: 'warn', ...(stack ? stackEnv(stack, stackDataDir) : {}) },
          },
        );
        reapOnExit(tests, { group: true });
        tests.on('error', reject);
        tests.on('exit', (code) => resolve(code ?? 1));
      });
      counts.push(JSON.parse(await readFile(resultFile, 'utf8').catch(() => '{}')) as Partial<JestCounts>);
      if (code !== 0) exitCode = code;
    }
  }
  if (interrupted.signal.aborted) exitCode = 128 + constants.signals[interruptedBy];
  // A failure keeps its logs for a look; a pass or an interrupted run leaves nothing behind.
  if (exitCode === 0 || interrupted.signal.aborted) await rm(dataDir, { recursive: true, force: true });
  else log(`kept ${dataDir} (logs in ${join(dataDir, 'logs')}) for a look at the failure`);
  log(`npm test finished in ${((Date.now() - startedAt) / 1000).toFixed(1)}s with exit code ${exitCode}`);
  console.log(summaryLine(counts, exitCode));
  process.exit(exitCode);
}

/** What the tests learn about the stack (test/support/test-env.ts reads it). */
function stackEnv(stack: Stack, dataDir: string): Record<string, string> {
  return {
    SLOWLANE_TEST_TEMPORAL_ADDRESS: stack.urls.temporal,
    SLOWLANE_TEST_TEMPORAL_NAMESPACE: stack.namespace,
    SLOWLANE_TEST_API_URL: stack.urls.api,
    SLOWLANE_TEST_SIMULATOR_URL: stack.urls.simulator,
    SLOWLANE_TEST_LEDGER_URL: stack.urls.ledger,
    SLOWLANE_TEST_S3_ENDPOINT: stack.urls.s3,
    SLOWLANE_TEST_DATA_DIR: dataDir,
    SLOWLANE_TEST_PRODUCT_ENV: JSON.stringify(stack.productEnv),
    SLOWLANE_TEST_METRICS_URLS: JSON.stringify(stack.metricsUrls),
    SLOWLANE_TEST_TEMPORAL_KIND: stack.temporalKind,
    ...(stack.postgres ? { SLOWLANE_TEST_POSTGRES: JSON.stringify(stack.postgres) } : {}),
  };
}
