import type { Config } from './config';
import type { Logger } from './logger';
import { createRegistry } from './metrics';
import { registerKeyUsageMetric, warnOnKeyUsage } from './payload-codec/key-usage';
import type { SdkMetrics } from './metrics-sdk';
import { scrapeSource, startMetricsServer, type MetricsServer } from './metrics-server';
import { createWorkerMetrics } from './metrics-worker';
import { startTracing } from './tracing';
import { workerTelemetry, type WorkerTelemetry } from './worker-telemetry';

export interface WorkerObservability {
  telemetry: WorkerTelemetry;
  metricsServer?: MetricsServer;
  close(): Promise<void>;
}

/**
 * A worker process's /metrics (ours plus the SDK's, which `sdkMetrics` told the Runtime to serve) and its tracer.
 * Call after Runtime.install, which takes the SDK's metrics options.
 */
export async function startWorkerObservability(
  config: Pick<Config, 'observability' | 'temporal'>,
  log: Logger,
  sdkMetrics?: SdkMetrics,
): Promise<WorkerObservability> {
  const { observability } = config;
  const tracing = startTracing({
    serviceName: `${observability.serviceName}-worker`,
    ...(observability.otlpEndpoint ? { otlpEndpoint: observability.otlpEndpoint } : {}),
  });
  const telemetry = workerTelemetry({ metrics: createWorkerMetrics(createRegistry('worker')), tracing });
  registerKeyUsageMetric(telemetry.metrics.registry);
  warnOnKeyUsage({ threshold: config.temporal.payloadCodecKeyWarnEncryptions, log });
  const metricsServer = observability.metricsEnabled
    ? await startMetricsServer({
        host: observability.metricsHost,
        port: observability.workerMetricsPort,
        registry: telemetry.metrics.registry,
        extraSources: sdkMetrics ? [scrapeSource(sdkMetrics.url)] : [],
      })
    : undefined;
  log.info({ metrics: metricsServer?.url ?? 'off', tracing: tracing.enabled ? observability.otlpEndpoint : 'off' }, 'observability');
  return {
    telemetry,
    ...(metricsServer ? { metricsServer } : {}),
    close: async () => {
      await metricsServer?.close();
      await tracing.shutdown();
    },
  };
}
