import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadConfig } from '../lib/config';
import { freePort } from './ports';
import { startStack } from './stack';
import { TEST_TENANTS } from './test-tenants';
import { ensureChromium } from './tools';

const REPO_ROOT = join(__dirname, '..');

/**
 * Test files in tier order. `npm test -- unit workflow` runs only those tiers, `npm test -- webhooks` only the
 * files whose path contains "webhooks", and `--no-static` skips the type check and lint.
 */
const TIERS = ['unit', 'workflow', 'integration', 'replay', 'browser'];

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
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

/**
 * `npm test`: prepares the tools, starts a private stack on free ports with a fresh data folder (so it never
 * collides with a running `npm start`), runs every tier with Node's test runner against it, and stops it.
 */
export async function runTests(args: string[]): Promise<void> {
  const startedAt = Date.now();
  const skipStatic = args.includes('--no-static');
  const selectors = args.filter((arg) => arg !== '--no-static');
  const tiers = selectors.filter((arg) => TIERS.includes(arg));
  const patterns = selectors.filter((arg) => !TIERS.includes(arg));
  const all = (await Promise.all((tiers.length > 0 ? tiers : TIERS).map((tier) => findTests(join(REPO_ROOT, 'test', tier))))).flat();
  const files = patterns.length > 0 ? all.filter((file) => patterns.some((pattern) => file.includes(pattern))) : all;
  if (files.length === 0) throw new Error(`no test files match ${selectors.join(' ')}`);

  if (!skipStatic) await staticChecks();
  const config = loadConfig();
  const dataDir = await mkdtemp(join(tmpdir(), 'slowlane-test-'));
  const log = (line: string) => console.log(`[stack] ${line}`);
  if (files.some((file) => file.includes(`${join('test', 'browser')}`))) await ensureChromium(log);
  const ports = {
    temporal: await freePort(),
    s3: await freePort(),
    simulator: await freePort(),
    ledger: await freePort(),
    api: await freePort(),
  };
  log(`starting a test stack in ${dataDir}`);
  const stack = await startStack({
    dataDir,
    ports,
    toolCacheDir: config.toolCacheDir,
    pathEnv: process.env.PATH ?? '',
    productEnv: { LOG_LEVEL: 'warn', SLOWLANE_TENANTS: JSON.stringify(TEST_TENANTS) },
    report: log,
    onUnexpectedExit: (name, code, logTail) => log(`${name} exited unexpectedly (code ${code}):\n${logTail}`),
  });
  log(`stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s; running ${files.length} test files`);

  let exitCode = 1;
  try {
    exitCode = await new Promise<number>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files.map((f) => relative(REPO_ROOT, f))],
        {
          cwd: REPO_ROOT,
          stdio: 'inherit',
          env: {
            ...process.env,
            LOG_LEVEL: 'warn',
            SLOWLANE_TEST_TEMPORAL_ADDRESS: stack.urls.temporal,
            SLOWLANE_TEST_TEMPORAL_NAMESPACE: stack.namespace,
            SLOWLANE_TEST_API_URL: stack.urls.api,
            SLOWLANE_TEST_SIMULATOR_URL: stack.urls.simulator,
            SLOWLANE_TEST_LEDGER_URL: stack.urls.ledger,
            SLOWLANE_TEST_S3_ENDPOINT: stack.urls.s3,
            SLOWLANE_TEST_DATA_DIR: dataDir,
            SLOWLANE_TEST_PRODUCT_ENV: JSON.stringify(stack.productEnv),
            SLOWLANE_TEST_METRICS_URLS: JSON.stringify(stack.metricsUrls),
          },
        },
      );
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await stack.stop();
    if (exitCode === 0) await rm(dataDir, { recursive: true, force: true });
    else log(`kept ${dataDir} (logs in ${join(dataDir, 'logs')}) for a look at the failure`);
  }
  log(`npm test finished in ${((Date.now() - startedAt) / 1000).toFixed(1)}s with exit code ${exitCode}`);
  process.exit(exitCode);
}
