import { Router, type Request, type Response } from 'express';
import { PLATFORM_TRAIL } from '../common/api-contract/audit';
import type {
  AbandonOutcome,
  DeadLetterList,
  GivenUpWebhookList,
  SpendCapRaised,
  WebhookRedelivery,
} from '../common/api-contract/admin';
import type { JobStep } from '../common/job';
import { parseJobId, TENANT_ID_PATTERN } from '../common/job-id';
import { webhookDeliveryParts } from '../common/webhooks';
import type { AuditTrail } from '../lib/audit/audit-trail';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { DURATION_PATTERN, parseDurationMs } from '../lib/duration';
import { type DeadLetterFilter, InvalidFilterError } from '../ops/dead-letter-query';
import type { ReplayAction } from '../ops/replay';
import { ApiError, apiErrors } from './api-error';
import { operatorOf, requireOperator } from './admin-auth';
import type { AdminService } from './admin-service';
import { actorOfOperator } from './audit/audit-actors';
import { audited } from './audit/audited';
import { auditQueryOf, listAudit } from './audit/list-audit';
import { requestIdOf } from './request-id';
import { checkRequest, requestValidators } from './request-validation';

/** How each replay outcome answers over HTTP. */
const REPLAY_STATUS: Record<ReplayAction, number> = {
  retried: 200,
  reset: 200,
  would_retry: 200,
  would_reset: 200,
  refused: 409,
  not_found: 404,
  failed: 500,
};

/** `/admin/*`: the dead-letter view and replay for operators, across tenants, behind the admin key. */
export function adminRouter(deps: {
  admin: AdminService;
  audit: AuditTrail;
  config: Pick<Config, 'api' | 'tenants' | 'people'>;
  log: Logger;
}): Router {
  const router = Router();
  router.use('/admin', requireOperator(deps.config));

  /** The tenant an operator's action on a job is recorded under; an id that names no tenant's job is no job. */
  const tenantOfJob = (jobId: string, what = jobId): string => {
    const tenantId = parseJobId(jobId)?.tenantId;
    if (tenantId === undefined || !deps.config.tenants.some((tenant) => tenant.id === tenantId))
      throw new ApiError(404, 'not_found', `${what}: no such job`);
    return tenantId;
  };
  /** A retried request names the same record by its Idempotency-Key, else by its X-Request-Id. */
  const idempotencyKeyOf = (req: Request, requestId: string): string => {
    const key = req.header('idempotency-key');
    return key !== undefined && key !== '' ? key : requestId;
  };

  router.get('/admin/dead-letters', async (req: Request, res: Response) => {
    const limit = parseLimit(req.query);
    try {
      const list: DeadLetterList = await deps.admin.deadLetters(parseFilter(req.query), limit);
      res.json(list);
    } catch (error) {
      if (error instanceof InvalidFilterError) throw apiErrors.invalidRequest(error.message);
      throw error;
    }
  });

  router.post('/admin/jobs/:id/replay', async (req: Request, res: Response) => {
    // The body is optional: `?dryRun=true` alone is a whole request.
    const body = req.body === undefined ? {} : checkRequest(requestValidators.replayRequest, req.body);
    const text = (value: string | undefined, fallback: string) =>
      value !== undefined && value.trim() !== '' ? value.trim().slice(0, 200) : fallback;
    // The operator recorded is who signed in; a body naming someone else is refused rather than believed.
    const operator = operatorOf(res);
    if (body.operator !== undefined && body.operator.trim() !== operator.id) {
      throw apiErrors.notYou('operator', operator.id);
    }
    const jobId = String(req.params.id);
    const dryRun = body.dryRun === true || req.query.dryRun === 'true';
    const replay = async () => {
      const outcome = await deps.admin.replay(jobId, {
        operator: operator.id,
        reason: text(body.reason, 'replay after a fix'),
        dryRun,
      });
      deps.log.info(
        { audit: 'replay', jobId, operator: operator.id, via: operator.via, dryRun, action: outcome.action },
        'operator replayed a job',
      );
      const status = REPLAY_STATUS[outcome.action];
      if (status >= 400) {
        const code = outcome.action === 'refused' ? 'not_replayable' : outcome.action;
        throw new ApiError(status, code, `${outcome.jobId}: ${outcome.detail}`, { ...outcome });
      }
      return { status, outcome };
    };
    // A dry run changes nothing, so it is not an action on the record.
    const requestId = requestIdOf(req);
    const { status, outcome } = dryRun
      ? await replay()
      : await audited(
          deps.audit,
          {
            action: 'job.replay',
            tenantId: tenantOfJob(jobId),
            jobId,
            actor: actorOfOperator(operator),
            requestId,
            idempotencyKey: idempotencyKeyOf(req, requestId),
          },
          replay,
        );
    res.status(status).set('X-Request-Id', requestId).json(outcome);
  });

  router.post('/admin/tenants/:tenantId/spend-cap-raised', async (req: Request, res: Response) => {
    const tenantId = String(req.params.tenantId);
    if (!deps.config.tenants.some((tenant) => tenant.id === tenantId))
      throw new ApiError(404, 'not_found', `no tenant ${tenantId}`);
    const operator = operatorOf(res);
    const requestId = requestIdOf(req);
    const { woken, query } = await audited(
      deps.audit,
      {
        action: 'tenant.spend-cap-raised',
        tenantId,
        target: tenantId,
        actor: actorOfOperator(operator),
        requestId,
        idempotencyKey: idempotencyKeyOf(req, requestId),
      },
      () => deps.admin.spendCapRaised(tenantId, operator.id),
    );
    deps.log.info(
      { audit: 'spend-cap-raised', tenantId, operator: operator.id, via: operator.via, woken },
      'operator woke jobs waiting for a spend cap',
    );
    const body: SpendCapRaised = { tenantId, woken, query };
    res.set('X-Request-Id', requestId).json(body);
  });

  router.get('/admin/webhooks/given-up', async (req: Request, res: Response) => {
    const list: GivenUpWebhookList = await deps.admin.givenUpWebhooks(parseLimit(req.query));
    res.json(list);
  });

  router.post('/admin/webhooks/:deliveryId/redeliver', async (req: Request, res: Response) => {
    const deliveryId = String(req.params.deliveryId);
    const operator = operatorOf(res);
    const jobId = webhookDeliveryParts(deliveryId).jobId ?? '';
    const tenantId = tenantOfJob(jobId, deliveryId);
    const requestId = requestIdOf(req);
    const entry = {
      action: 'webhook.redeliver',
      tenantId,
      jobId,
      target: deliveryId,
      actor: actorOfOperator(operator),
      requestId,
    } as const;
    const body = await audited(
      deps.audit,
      { ...entry, idempotencyKey: idempotencyKeyOf(req, requestId) },
      async (): Promise<WebhookRedelivery> => {
        const outcome = await deps.admin.redeliverWebhook(deliveryId, operator.id);
        deps.log.info(
          { audit: 'redeliver-webhook', deliveryId, operator: operator.id, via: operator.via, action: outcome.action },
          'operator redelivered a webhook',
        );
        if (outcome.action === 'not_found') throw new ApiError(404, 'not_found', `${deliveryId}: ${outcome.detail}`);
        if (outcome.action === 'refused')
          throw new ApiError(409, 'not_redeliverable', `${deliveryId}: ${outcome.detail}`, { ...outcome });
        return {
          deliveryId,
          action: outcome.action,
          detail: outcome.detail,
          ...(outcome.runId ? { runId: outcome.runId } : {}),
        };
      },
    );
    res.set('X-Request-Id', requestId).json(body);
  });

  router.post('/admin/jobs/:id/abandon', async (req: Request, res: Response) => {
    const body = req.body === undefined ? {} : checkRequest(requestValidators.abandonRequest, req.body);
    const operator = operatorOf(res);
    if (body.operator !== undefined && body.operator.trim() !== operator.id) {
      throw apiErrors.notYou('operator', operator.id);
    }
    const jobId = String(req.params.id);
    const reason = body.reason?.trim().slice(0, 200);
    const requestId = requestIdOf(req);
    const answer = await audited(
      deps.audit,
      {
        action: 'job.abandon',
        tenantId: tenantOfJob(jobId),
        jobId,
        actor: actorOfOperator(operator),
        requestId,
        idempotencyKey: idempotencyKeyOf(req, requestId),
      },
      async (): Promise<AbandonOutcome> => {
        const outcome = await deps.admin.abandon(jobId, { operator: operator.id, ...(reason ? { reason } : {}) });
        deps.log.info(
          { audit: 'abandon', jobId, operator: operator.id, via: operator.via, action: outcome.action },
          'operator abandoned a dead letter',
        );
        if (outcome.action === 'not_found') throw new ApiError(404, 'not_found', `${jobId}: ${outcome.detail}`);
        if (outcome.action === 'refused')
          throw new ApiError(409, 'not_abandonable', `${jobId}: ${outcome.detail}`, { ...outcome });
        return { jobId, action: outcome.action, detail: outcome.detail };
      },
    );
    res.set('X-Request-Id', requestId).json(answer);
  });

  router.get('/admin/audit', async (req: Request, res: Response) => {
    const tenantId = req.query.tenant;
    // The platform's trail (key rotations) is read like a tenant's, under a name no tenant can have.
    if (typeof tenantId !== 'string' || !(tenantId === PLATFORM_TRAIL || TENANT_ID_PATTERN.test(tenantId))) {
      throw apiErrors.invalidRequest(`tenant must name one tenant, or ${PLATFORM_TRAIL}, given once`, {
        field: 'tenant',
      });
    }
    // A well-formed id this deployment does not have names nothing: no such tenant, as for a job id.
    if (tenantId !== PLATFORM_TRAIL && !deps.config.tenants.some((tenant) => tenant.id === tenantId))
      throw apiErrors.notFound(`tenant ${tenantId}`);
    res.json(await listAudit(deps.audit, deps.config.api.pageTokenSecret, tenantId, auditQueryOf(req)));
  });

  return router;
}

function parseLimit(query: Request['query']): number {
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw apiErrors.invalidRequest('limit must be a whole number from 1 to 1000', { field: 'limit' });
  }
  return limit;
}

function parseFilter(query: Request['query']): DeadLetterFilter {
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '')
      throw apiErrors.invalidRequest(`${name} must be given once, not empty`);
    return value;
  };
  const age = (name: string): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    // The pattern the document states, so a padded value is refused here as the document says.
    const ms = DURATION_PATTERN.test(value) ? parseDurationMs(value) : undefined;
    if (ms === undefined)
      throw apiErrors.invalidRequest(`${name} must be a duration such as 30m, 2h or 7d`, { field: name });
    return ms;
  };
  const step = text('step');
  const errorType = text('errorType');
  const tenantId = text('tenant');
  const olderThanMs = age('olderThan');
  const newerThanMs = age('newerThan');
  return {
    ...(step !== undefined ? { step: step as JobStep } : {}),
    ...(errorType !== undefined ? { errorType } : {}),
    ...(tenantId !== undefined ? { tenantId } : {}),
    ...(olderThanMs !== undefined ? { olderThanMs } : {}),
    ...(newerThanMs !== undefined ? { newerThanMs } : {}),
  };
}
