import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * Trace and span ids of the active span, for every log line (a pino mixin): a log line found by job id leads to
 * its trace, and back. Empty when tracing is off or no span is active.
 */
export function traceLogFields(): { traceId?: string; spanId?: string } {
  const span = trace.getSpanContext(context.active());
  if (!span || !isSpanContextValid(span)) return {};
  return { traceId: span.traceId, spanId: span.spanId };
}
