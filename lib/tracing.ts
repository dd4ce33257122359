import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NoopSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export interface Tracing {
  /** False when no exporter is configured: spans are neither recorded nor sent, and nothing is registered. */
  enabled: boolean;
  resource: Resource;
  /** Where the workflow's spans go (they are created inside the workflow sandbox and handed out through a sink). */
  spanProcessor: SpanProcessor;
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** service.name of the spans, e.g. slowlane-api. */
  serviceName: string;
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans are batched and posted to `<url>/v1/traces`. */
  otlpEndpoint?: string;
  /** Tests hand in an in-memory exporter; spans are then exported one by one as they end. */
  exporter?: SpanExporter;
}

/**
 * OpenTelemetry for one process: a tracer provider registered globally (AsyncLocalStorage context, W3C trace
 * context propagation), so the Temporal interceptors carry the active trace into workflow and activity headers.
 * Off unless an exporter or an OTLP endpoint is given.
 */
export function startTracing(options: TracingOptions): Tracing {
  const resource = new Resource({ 'service.name': options.serviceName });
  const spanProcessor = options.exporter
    ? new SimpleSpanProcessor(options.exporter)
    : options.otlpEndpoint
      ? new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.otlpEndpoint}/v1/traces` }))
      : undefined;
  if (!spanProcessor) {
    return { enabled: false, resource, spanProcessor: new NoopSpanProcessor(), shutdown: async () => undefined };
  }
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return { enabled: true, resource, spanProcessor, shutdown: () => provider.shutdown() };
}
