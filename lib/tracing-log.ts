import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * Trace and span ids of the active span, for every log line (a pino mixin): a log line found by job id leads to
 * its trace, and back. Named as the Temporal OpenTelemetry interceptors name them on workflow and activity lines
 * (`trace_id`, `span_id`), so one field finds all of a trace's lines. Empty when no span is active.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpanContext(context.active());
  if (!span || !isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId };
}
