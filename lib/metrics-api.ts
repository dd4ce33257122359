import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';
import { BUCKETS, METRIC_PREFIX } from './metrics';

/** What the API process measures about its own requests; queue and job gauges come from metrics-temporal.ts. */
export function createApiMetrics(registry: Registry) {
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'API requests by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'API request latency by method and route pattern',
      labelNames: ['method', 'route'] as const,
      buckets: BUCKETS.httpSeconds,
      registers,
    }),
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;

/**
 * Counts each request under its route pattern (`/jobs/:id`), never the raw path, so ids do not become labels.
 * On 'close', not 'finish': an event stream or a download the client leaves never finishes, and still counts.
 */
export function measureRequests(metrics: ApiMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = metrics.requestDuration.startTimer();
    res.on('close', () => {
      const pattern = (req.route as { path?: string } | undefined)?.path;
      const route = pattern ? `${req.baseUrl}${pattern}` : 'unmatched';
      metrics.requests.inc({ method: req.method, route, status: String(res.statusCode) });
      stop({ method: req.method, route });
    });
    next();
  };
}
