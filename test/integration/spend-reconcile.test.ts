import assert from '../support/assert';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';
import { reconcileTenantDay } from '../../ops/spend-reconcile';
import { cleanTextInvoice, FaultHarness } from '../support/fault-harness';
import { testEnv } from '../support/test-env';

const REPO_ROOT = join(__dirname, '..', '..');

/** Runs `npm run spend -- reconcile …` as an operator would, against the harness's Temporal and this Redis. */
function spendCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'ops', 'spend-reconcile-command.ts'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Real jobs on the real worker, simulator and Redis: the tenant's total in the store agrees with the usage its jobs
 * recorded, and a total moved behind the jobs' back (a settle counted twice, one lost) is reported as a difference.
 */
describe('spend reconciliation against real jobs', () => {
  let harness: FaultHarness;
  let redis: LocalRedis;
  const prefix = `reconcile-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    redis = await startLocalRedis();
    harness = await FaultHarness.create();
    await harness.startWorker({ REDIS_URL: redis.url, SPEND_REDIS_PREFIX: prefix });
  });
  afterAll(async () => {
    await harness?.close();
    await redis?.stop();
  });

  test('when jobs ran and their calls were settled, then the store agrees with them; when the total is moved, then the difference is reported and the command exits 1', async () => {
    const handles = await Promise.all([0, 1].map(() => harness.startJob(cleanTextInvoice(`reconcile-${randomUUID()}`))));
    const states = await Promise.all(handles.map((handle) => handle.result()));
    assert.deepEqual(
      states.map((state) => state.status),
      ['posted', 'posted'],
    );
    const jobsUsd = states.reduce((sum, state) => sum + state.usage.costUsd, 0);
    assert.ok(jobsUsd > 0, 'the jobs paid for their calls');
    const day = new Date().toISOString().slice(0, 10);
    const client = await harness.temporalClient();
    const store = new RedisSpendStore(redis.client(), { keyPrefix: prefix });

    const agreed = await reconcileTenantDay({ client, store }, 'demo', day);
    assert.equal(agreed.jobs, 2);
    assert.deepEqual(agreed.unread, []);
    assert.ok(Math.abs(agreed.storeUsd - jobsUsd) < 1e-9, `store ${agreed.storeUsd} vs jobs ${jobsUsd}`);
    assert.equal(agreed.differenceUsd, 0);

    const env = {
      ...(testEnv().productEnv ?? {}),
      TEMPORAL_ADDRESS: harness.temporalAddress,
      REDIS_URL: redis.url,
      SPEND_REDIS_PREFIX: prefix,
    };
    const ok = await spendCommand(['reconcile', '--tenant', 'demo', '--day', day], env);
    assert.equal(ok.code, 0, ok.stderr || ok.stdout);
    assert.match(ok.stdout, /demo .*— ok/);

    // A settle counted twice: half a dollar more than any job recorded.
    await store.settle({ tenantId: 'demo', id: `double-${randomUUID()}`, usd: 0 }, 0.5);
    const over = await spendCommand(['reconcile', '--tenant', 'demo', '--day', day, '--json'], env);
    assert.equal(over.code, 1, over.stderr || over.stdout);
    const [report] = JSON.parse(over.stdout) as Array<{ differenceUsd: number }>;
    assert.ok(report && Math.abs(report.differenceUsd - 0.5) < 0.02, `difference ${report?.differenceUsd}`);

    // And a dollar lost: the store now holds half a dollar less than the jobs recorded.
    await store.settle({ tenantId: 'demo', id: `lost-${randomUUID()}`, usd: 0 }, -1);
    const under = await reconcileTenantDay({ client, store }, 'demo', day);
    assert.ok(Math.abs(under.differenceUsd + 0.5) < 0.02, `difference ${under.differenceUsd}`);
  });
});
