import { createActivityDeps } from './activity-deps';
import { bundleWorkflows, createWorkers } from './create-workers';
import { loadConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { connectWorker } from '../lib/temporal-connection';
import { temporalLoggerFor } from '../lib/temporal-logger';
import { Runtime } from '@temporalio/worker';

/** Worker process: polls the task queues named by WORKER_PRIORITIES until SIGINT/SIGTERM, then drains. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('worker', config.logLevel);
  Runtime.install({ logger: temporalLoggerFor(log.child({ component: 'temporal-sdk' })) });
  const connection = await connectWorker(config.temporal);
  const workers = await createWorkers({
    connection,
    config,
    deps: createActivityDeps(config, log),
    workflowBundle: await bundleWorkflows(),
    log,
  });
  log.info(
    { taskQueues: workers.map((worker) => worker.options.taskQueue), namespace: config.temporal.namespace },
    'worker ready',
  );
  await Promise.all(workers.map((worker) => worker.run()));
  await connection.close();
  log.info('worker stopped');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
