import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import { Registry } from 'prom-client';
import type { JobMetricsSinks } from '../common/job-metrics';
import { activityLogContext } from './log-context';
import { ActivityMetricsInterceptor } from './metrics-activity';
import { jobMetricsSinks } from './metrics-sinks';
import { createWorkerMetrics, type WorkerMetrics } from './metrics-worker';
import { startTracing, type Tracing } from './tracing';

export interface WorkerTelemetry {
  metrics: WorkerMetrics;
  tracing: Tracing;
  /** Outermost first: the trace span, then metrics, then log context; the failure translation goes after them. */
  activityInterceptors: ActivityInterceptorsFactory[];
  sinks: InjectedSinks<JobMetricsSinks & { exporter: OpenTelemetryWorkflowExporter }>;
}

/**
 * Everything a Worker needs to be observable. Workflows always call both sinks (the bundle always carries the
 * OpenTelemetry interceptors, so replay sees one bundle whatever the configuration); with tracing off the span
 * processor drops the spans and with no registry handed in the counts go to a private one nobody scrapes.
 */
export function workerTelemetry(options: { metrics?: WorkerMetrics; tracing?: Tracing } = {}): WorkerTelemetry {
  const metrics = options.metrics ?? createWorkerMetrics(new Registry());
  const tracing = options.tracing ?? startTracing({ serviceName: 'slowlane-worker' });
  return {
    metrics,
    tracing,
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
      (ctx) => ({ inbound: new ActivityMetricsInterceptor(metrics, ctx) }),
      () => activityLogContext(),
    ],
    sinks: {
      ...jobMetricsSinks(metrics),
      exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource),
    },
  };
}
