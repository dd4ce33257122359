import { context, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';

/**
 * One server span per API request, continuing the caller's trace when it sent a `traceparent`, and active while
 * the route runs, so the Temporal client interceptor carries it into the workflow it starts or updates.
 * Mount it after the body parsers: their callbacks would otherwise run outside the span's context.
 */
export function traceRequests(tracer: Tracer = trace.getTracer('slowlane-api')) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      `${req.method} ${req.path}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } },
      parent,
    );
    // 'close' comes for every response, also one the client left before it finished (an event stream).
    res.on('close', () => {
      // The matched route (`/jobs/:id`) names the span, so spans of one route group together whatever the id.
      const route = (req.route as { path?: string } | undefined)?.path;
      if (route) {
        span.updateName(`${req.method} ${req.baseUrl}${route}`);
        span.setAttribute('http.route', `${req.baseUrl}${route}`);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
