import assert from '../support/assert';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { BUILT_ENTRYPOINTS, buildArtifact } from '../../local/build/build';
import { freePort } from '../../local/stack/ports';
import { Supervisor } from '../../local/stack/supervisor';
import { workerIsPolling } from '../../local/stack/temporal-setup';
import { WORKFLOW_BUNDLE_FILE } from '../../workers/create-workers';
import { submit, waitForJob } from '../support/api-client';
import { sampleWith } from '../support/samples';
import { testEnv } from '../support/test-env';

const REPO_ROOT = join(__dirname, '..', '..');

/**
 * What production runs: `npm run build`, then `node dist/workers/main.js` and `node dist/api/main.js` (no tsx, no
 * bundling at start) against the test stack's Temporal, S3, simulator and ledger, on task queues of their own so
 * only these two processes carry the job.
 */
describe('the built artifact (npm run build, then node dist/…)', () => {
  // Inside the repository, as dist/ is: the compiled code finds its packages in the node_modules above it.
  const outDir = join(REPO_ROOT, `.tmp-dist-${process.pid}`);
  const prefix = `built-${randomUUID().slice(0, 8)}`;
  let supervisor: Supervisor;
  let apiUrl: string;
  let workerEnv: Record<string, string>;

  beforeAll(async () => {
    const { productEnv, dataDir, temporalAddress, temporalNamespace } = testEnv();
    assert.ok(productEnv && dataDir && temporalAddress, 'needs the stack that `npm test` starts');
    await buildArtifact({ outDir, report: () => undefined });
    // Without the workflows' entry module, bundling at start would fail: the job below can only run if the worker
    // loads the prebuilt bundle.
    await rm(join(outDir, 'workflows', 'index.js'));
    supervisor = new Supervisor(join(dataDir, 'logs'));
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    const env = { ...productEnv, TASK_QUEUE_PREFIX: prefix };
    workerEnv = { ...env, WORKER_METRICS_PORT: '0' };
    await Promise.all([
      supervisor.start({
        name: 'built-worker',
        command: process.execPath,
        args: [join(outDir, 'workers', 'main.js')],
        env: workerEnv,
        ready: async ({ pid }) => workerIsPolling(temporalAddress, temporalNamespace, pid, prefix),
        readyTimeoutMs: 120_000,
      }),
      supervisor.start({
        name: 'built-api',
        command: process.execPath,
        args: [join(outDir, 'api', 'main.js')],
        env: { ...env, API_PORT: String(port), API_PUBLIC_URL: apiUrl, API_METRICS_PORT: '0' },
        ready: async () => (await fetch(`${apiUrl}/readyz`)).ok,
      }),
    ]);
  });

  afterAll(async () => {
    await supervisor?.stopAll();
    await rm(outDir, { recursive: true, force: true });
  });

  test('when built, then dist/ holds the entrypoints, the workflow bundle, the schemas and the reviewer page, and no test or local code', async () => {
    for (const file of [
      ...BUILT_ENTRYPOINTS,
      WORKFLOW_BUNDLE_FILE,
      'common/schemas/invoice-extraction.schema.json',
      'reviewer/static/index.html',
      'reviewer/assets/reviewer.js',
    ]) {
      assert.ok(existsSync(join(outDir, file)), `${relative(REPO_ROOT, outDir)}/${file} exists`);
    }
    for (const folder of ['test', 'local', 'bench'])
      assert.equal(existsSync(join(outDir, folder)), false, `${folder}/ stays out`);
    const workerMain = await readFile(join(outDir, 'workers', 'main.js'), 'utf8');
    assert.match(workerMain, /require\(/, 'CommonJS');
    assert.doesNotMatch(workerMain, /tsx/);
  });

  test('when the built code requires a package, then it is a production dependency (the image installs only those)', async () => {
    const { dependencies } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const required = new Set<string>();
    for (const file of await readdir(outDir, { recursive: true })) {
      if (!file.endsWith('.js') || file === WORKFLOW_BUNDLE_FILE) continue;
      const code = await readFile(join(outDir, file), 'utf8');
      for (const [, name] of code.matchAll(/(?:require|import)\(["']([^"'.][^"']*)["']\)/g)) {
        if (name && !name.startsWith('node:') && !builtinModules.includes(name))
          required.add(name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] as string));
      }
    }
    assert.ok(required.has('@temporalio/worker'), 'the scan finds the requires');
    assert.deepEqual([...required].filter((name) => !(name in dependencies)).sort(), []);
  });

  test('when the built API runs, then it answers /readyz and serves the prebuilt reviewer script', async () => {
    const ready = await fetch(`${apiUrl}/readyz`);
    assert.equal(ready.status, 200);
    const script = await fetch(`${apiUrl}/review/assets/reviewer.js`);
    assert.equal(script.status, 200);
    assert.equal(await script.text(), await readFile(join(outDir, 'reviewer', 'assets', 'reviewer.js'), 'utf8'));
  });

  test('when a job is submitted to the built API, then the built worker runs it from the prebuilt bundle to the end', async () => {
    const sample = await sampleWith('posted');
    const submitted = await submit(sample.bytes, { baseUrl: apiUrl, fileName: sample.fileName });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const job = await waitForJob(
      submitted.body.jobId as string,
      ['posted', 'failed', 'rejected', 'awaiting_review'],
      90_000,
    );
    assert.equal(job.status, 'posted');
  });

  test('when the built worker gets SIGTERM (what tini passes on in the image), then it stops polling, drains and exits 0', async () => {
    const { temporalAddress, temporalNamespace } = testEnv();
    assert.ok(temporalAddress);
    // Its own queues, so the server's view of polling belongs to this process alone.
    const ownPrefix = `${prefix}-sigterm`;
    const child = spawn(process.execPath, [join(outDir, 'workers', 'main.js')], {
      env: { ...process.env, ...workerEnv, TASK_QUEUE_PREFIX: ownPrefix, WORKER_PRIORITIES: 'bulk', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    try {
      while (!(await workerIsPolling(temporalAddress, temporalNamespace, child.pid, ownPrefix))) {
        assert.equal(child.exitCode, null, `the worker exited before polling:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      child.kill('SIGTERM');
      assert.equal(await exited, 0, output);
      assert.match(output, /"msg":"worker stopped"/, 'it ran its shutdown to the end instead of being cut off');
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
