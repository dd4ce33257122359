import { createActivityDeps } from './activity-deps';
import { gatewayFromConfig } from '../gateway/gateway-from-config';
import { createWorkers, workflowBundleForProcess } from './create-workers';
import { workerDeploymentOptions } from './worker-deployment';
import { loadConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { connectWorker } from '../lib/temporal-connection';
import { temporalLoggerFor } from '../lib/temporal-logger';
import { recordGatewayEvents } from '../gateway/gateway-metrics';
import { spendCapsFromConfig } from '../gateway/spend/spend-from-config';
import { sdkMetricsOptions } from '../lib/metrics-sdk';
import { startWorkerObservability } from '../lib/worker-observability';
import { Runtime } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { dataConverterFor } from '../lib/payload-codec/data-converter';
import { ensureRetentionSchedule } from './retention-schedule';

/** Worker process: polls the task queues named by WORKER_PRIORITIES until SIGINT/SIGTERM, then drains. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('worker', config.logLevel);
  const sdkMetrics = config.observability.metricsEnabled ? await sdkMetricsOptions('worker') : undefined;
  Runtime.install({
    logger: temporalLoggerFor(log.child({ component: 'temporal-sdk' })),
    ...(sdkMetrics ? { telemetryOptions: sdkMetrics.telemetryOptions } : {}),
  });
  const observability = await startWorkerObservability(config, log, sdkMetrics);
  const connection = await connectWorker(config.temporal);
  const gateway = gatewayFromConfig(config, log);
  recordGatewayEvents(observability.telemetry.metrics.registry, gateway.gateway.events, gateway.embeddings.events, gateway.speech.events);
  const spendCaps = await spendCapsFromConfig(
    config,
    { gateway: gateway.gateway, embeddings: gateway.embeddings, speech: gateway.speech, speechAsync: gateway.speechAsync },
    log,
    observability.telemetry.metrics.registry,
  );
  const workflowBundle = await workflowBundleForProcess();
  const deployment = await workerDeploymentOptions(config.worker, workflowBundle);
  // The batch lane's activities signal-with-start the collectors through this client, on the worker's connection;
  // the retention sweep lists and erases jobs through it.
  const client = new Client({ connection, namespace: config.temporal.namespace, dataConverter: dataConverterFor(config.temporal) });
  const workers = await createWorkers({
    connection,
    config,
    deps: createActivityDeps(
      config,
      { gateway: spendCaps.gateway, embeddings: spendCaps.embeddings, speech: spendCaps.speech, speechAsync: spendCaps.speechAsync, spend: spendCaps.spend },
      client,
      observability.telemetry.metrics.registry,
      log,
    ),
    activitySlots: (priority) => gateway.activitySlots(priority),
    workflowBundle,
    deployment,
    telemetry: observability.telemetry,
  });
  // The sweep runs on the bulk queue: a process serving it makes sure the schedule exists.
  if (config.worker.priorities.includes('bulk')) await ensureRetentionSchedule(client, config, log);
  log.info(
    {
      taskQueues: workers.map((worker) => worker.options.taskQueue),
      namespace: config.temporal.namespace,
      deployment: deployment.version,
      versioning: deployment.useWorkerVersioning,
    },
    'worker ready',
  );
  await Promise.all(workers.map((worker) => worker.run()));
  await connection.close();
  await gateway.close();
  await spendCaps.close();
  await observability.close();
  log.info('worker stopped');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
