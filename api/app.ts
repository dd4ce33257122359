import express, { type NextFunction, type Request, type Response } from 'express';
import { NamespaceNotFoundError } from '@temporalio/common';
import type { AuditTrail } from '../lib/audit/audit-trail';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { measureRequests, type ApiMetrics } from '../lib/metrics-api';
import { traceRequests } from '../lib/tracing-http';
import { limitJsonDepth } from './json-depth';
import { methodNotAllowed } from './method-not-allowed';
import { documentedPaths } from './openapi/document';
import { adminRouter } from './admin-routes';
import { codecRouter, type CodecRouteDeps } from './codec-routes';
import type { AdminService } from './admin-service';
import { ApiError } from './api-error';
import { auditRouter } from './audit/audit-routes';
import type { Caller } from './auth';
import { documentRouter } from './document-routes';
import { eventsRouter } from './events-routes';
import type { JobsService } from './jobs-service';
import { jobsRouter } from './jobs-routes';
import { openApiRouter } from './openapi-routes';
import type { PushService } from './push/push-service';
import { pushRouter } from './push/push-routes';
import { reviewPageRouter } from './review-page-routes';
import type { SchedulesService } from './schedules/schedules-service';
import { schedulesRouter } from './schedules/schedules-routes';
import { socketRouter } from './socket/socket-routes';
import { speechCallbackRouter } from './speech/speech-callback-routes';
import type { SpeechCallbackDeps } from './speech/speech-callbacks';
import { createSocketTokens } from './socket/socket-tokens';

export interface AppDeps {
  config: Pick<Config, 'api' | 'tenants' | 'people' | 'clients' | 'jobs' | 'document' | 'anthropic' | 'call' | 'deployment' | 'push'>;
  jobs: JobsService;
  /** Where people's decisions and operators' actions are recorded before they take effect (lib/audit). */
  audit: AuditTrail;
  log: Logger;
  /** Whether the job service (Temporal) answers; /readyz reports it. */
  ready: () => Promise<boolean>;
  /** Operators' dead-letter view and replay under /admin (docs/operations.md); not mounted without it. */
  admin?: AdminService;
  /** `/schedules` (Temporal Schedules starting jobs); not mounted without it. */
  schedules?: SchedulesService;
  /** `/push/*` (Web Push subscriptions); not mounted without it. */
  push?: PushService;
  /** The payload codec behind /codec for the Temporal Web UI and CLI (docs/operations.md); not mounted without it. */
  codec?: CodecRouteDeps;
  /** `POST /callbacks/speech/{id}` (the asynchronous speech provider's webhook); not mounted without it. */
  speechCallbacks?: SpeechCallbackDeps;
  /** Request counts and latency by route for /metrics. */
  metrics?: ApiMetrics;
}

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(express.json({ limit: '1mb' }));
  app.use(limitJsonDepth());
  if (deps.metrics) app.use(measureRequests(deps.metrics));
  app.use(traceRequests());

  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = await deps.ready().catch(() => false);
    res.status(ready ? 200 : 503).json({ ok: ready });
  });
  if (deps.speechCallbacks) app.use(speechCallbackRouter(deps.speechCallbacks));
  app.use(jobsRouter(deps));
  app.use(auditRouter(deps));
  if (deps.schedules) app.use(schedulesRouter({ schedules: deps.schedules, config: deps.config }));
  if (deps.codec) app.use(codecRouter(deps.codec));
  if (deps.admin) app.use(adminRouter({ admin: deps.admin, audit: deps.audit, config: deps.config, log: deps.log }));
  app.use(eventsRouter(deps));
  if (deps.push) app.use(pushRouter({ push: deps.push, config: deps.config }));
  app.use(socketRouter({ config: deps.config, tokens: createSocketTokens(deps.config) }));
  app.use(documentRouter(deps));
  app.use(reviewPageRouter(deps));
  app.use(openApiRouter(deps));

  app.use(methodNotAllowed(documentedPaths()));
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    next(new ApiError(404, 'not_found', 'no such route; see /openapi.json'));
  });
  app.use(errorHandler(deps.log));
  return app;
}

/** Tenant and job of a failed request, so its log line can be found beside the job's workers' lines. */
function requestContext(req: Request, res: Response): { tenantId?: string; jobId?: string } {
  const tenantId = (res.locals.caller as Caller | undefined)?.tenant.id;
  const segment = /^\/(?:admin\/)?jobs\/([^/]+)/.exec(req.path)?.[1];
  let jobId: string | undefined;
  try {
    jobId = segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    jobId = undefined;
  }
  return { ...(tenantId ? { tenantId } : {}), ...(jobId ? { jobId } : {}) };
}

/** The one place a throwable becomes an HTTP answer: a status and a JSON body with a stable code. */
export function errorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) {
      log.error({ err: error, method: req.method, path: req.path, ...requestContext(req, res) }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    // An error that says when to come back (a 429) says it in the header clients and proxies read, too.
    const retryAfter = apiError.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number') res.set('Retry-After', String(retryAfter));
    res.status(apiError.status).json({
      error: { code: apiError.code, message: apiError.message, ...(apiError.details ? { details: apiError.details } : {}) },
    });
  };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') return new ApiError(400, 'invalid_request', 'the body is not valid JSON');
  if (type === 'entity.too.large') return new ApiError(413, 'payload_too_large', 'the JSON body is larger than 1 MB');
  // A charset other than UTF-8 or an unknown Content-Encoding: the client's to fix, not a fault of ours.
  if (status === 415) return new ApiError(415, 'unsupported_media_type', `the JSON body cannot be read: ${(error as Error).message}`);
  if (status === 400) return new ApiError(400, 'invalid_request', (error as Error).message);
  if (isUnavailable(error)) return new ApiError(503, 'temporal_unavailable', 'the job service is unreachable; retry shortly');
  return new ApiError(500, 'internal', 'something went wrong on our side; retrying with the same Idempotency-Key is safe');
}

function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: number }).code;
  // gRPC UNAVAILABLE (14) and DEADLINE_EXCEEDED (4) from the Temporal client. A loaded dev server also answers
  // NamespaceNotFound for a namespace that exists while its namespace cache refreshes (found by Schemathesis):
  // the client can retry it like an outage, so it is a 503, not a 500.
  if (error instanceof NamespaceNotFoundError) return true;
  return code === 14 || code === 4 || (error instanceof Error && error.name === 'ServiceError' && /UNAVAILABLE/.test(error.message));
}
