import type { Client } from '@temporalio/client';
import type { Config } from './config';
import type { Logger } from './logger';
import { createRegistry } from './metrics';
import { registerKeyUsageMetric, warnOnKeyUsage } from './payload-codec/key-usage';
import { type ApiMetrics, createApiMetrics } from './metrics-api';
import { startMetricsServer, type MetricsServer } from './metrics-server';
import { registerTemporalGauges } from './metrics-temporal';
import { startTracing, type Tracing } from './tracing';

export interface ApiObservability {
  metrics: ApiMetrics;
  tracing: Tracing;
  metricsServer?: MetricsServer;
  close(): Promise<void>;
}

/**
 * The API process's tracer (its request spans start each job's trace) and its /metrics: requests by route, and
 * the task-queue backlog and open-job gauges read from Temporal. Start tracing before the Temporal client is
 * used, so its interceptor finds the registered propagator.
 */
export async function startApiObservability(
  config: Pick<Config, 'observability' | 'temporal'>,
  client: Client,
  log: Logger,
  tracing: Tracing = startApiTracing(config),
): Promise<ApiObservability> {
  const { observability } = config;
  const registry = createRegistry('api');
  const metrics = createApiMetrics(registry);
  registerTemporalGauges(registry, client, config);
  registerKeyUsageMetric(registry);
  warnOnKeyUsage({ threshold: config.temporal.payloadCodecKeyWarnEncryptions, log });
  const metricsServer = observability.metricsEnabled
    ? await startMetricsServer({ host: observability.metricsHost, port: observability.apiMetricsPort, registry })
    : undefined;
  log.info({ metrics: metricsServer?.url ?? 'off', tracing: tracing.enabled ? observability.otlpEndpoint : 'off' }, 'observability');
  return {
    metrics,
    tracing,
    ...(metricsServer ? { metricsServer } : {}),
    close: async () => {
      await metricsServer?.close();
      await tracing.shutdown();
    },
  };
}

export function startApiTracing(config: Pick<Config, 'observability'>): Tracing {
  const { observability } = config;
  return startTracing({
    serviceName: `${observability.serviceName}-api`,
    ...(observability.otlpEndpoint ? { otlpEndpoint: observability.otlpEndpoint } : {}),
  });
}
