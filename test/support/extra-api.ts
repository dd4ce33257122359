import assert from 'node:assert/strict';
import { join } from 'node:path';
import { freePort } from '../../local/stack/ports';
import { Supervisor } from '../../local/stack/supervisor';
import { workerIsPolling } from '../../local/stack/temporal-setup';
import { testEnv } from './test-env';

export interface ExtraApi {
  url: string;
  stop(): Promise<void>;
}

export interface ExtraWorker {
  stop(): Promise<void>;
}

/**
 * A second API process on the test stack (same Temporal, S3 and workers) with settings of its own, e.g. a
 * deployment that refuses private callback URLs, or tenants with a default callback URL. `preload`: a module the
 * process imports before the API's own (a test's declaration, e.g. test/support/editable-order-decision.ts).
 */
export async function startExtraApi(name: string, env: Record<string, string>, options: { preload?: string } = {}): Promise<ExtraApi> {
  const { productEnv, dataDir } = testEnv();
  assert.ok(productEnv && dataDir, 'needs the stack that `npm test` starts');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const supervisor = new Supervisor(join(dataDir, 'logs'));
  await supervisor.start({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', ...(options.preload ? ['--import', options.preload] : []), join(__dirname, '..', '..', 'api', 'main.ts')],
    env: { ...productEnv, API_PORT: String(port), API_PUBLIC_URL: url, API_METRICS_PORT: '0', ...env },
    ready: async () => (await fetch(`${url}/readyz`)).ok,
  });
  return { url, stop: () => supervisor.stopAll() };
}

/** A worker process on the test stack with settings of its own (e.g. another TASK_QUEUE_PREFIX); ready once it polls. */
export async function startExtraWorker(name: string, env: Record<string, string>): Promise<ExtraWorker> {
  const { productEnv, dataDir, temporalAddress, temporalNamespace } = testEnv();
  assert.ok(productEnv && dataDir && temporalAddress, 'needs the stack that `npm test` starts');
  const supervisor = new Supervisor(join(dataDir, 'logs'));
  const merged: Record<string, string> = { ...productEnv, WORKER_METRICS_PORT: '0', ...env };
  await supervisor.start({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', join(__dirname, '..', '..', 'workers', 'main.ts')],
    env: merged,
    ready: async ({ pid }) => workerIsPolling(temporalAddress, temporalNamespace, pid, merged.TASK_QUEUE_PREFIX ?? 'slowlane'),
    readyTimeoutMs: 120_000,
  });
  return { stop: () => supervisor.stopAll() };
}
