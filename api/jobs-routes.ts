import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { IDEMPOTENCY_KEY_PATTERN } from '../common/job-id';
import type { Invoice } from '../common/invoice';
import { JOB_STATUSES, type JobStatus } from '../common/job';
import type { SubmitReviewInput } from '../common/messages';
import { PRIORITIES, type Priority } from '../common/task-queues';
import { checkCallbackUrl } from '../lib/callback-url';
import type { Config } from '../lib/config';
import { apiErrors } from './api-error';
import { authenticate, callerOf } from './auth';
import type { JobsService } from './jobs-service';
import { receiveUpload } from './multipart-upload';
import { retryAfterSeconds } from './poll-hint';
import { reviewUpdateId } from './review-update-id';

const ALLOWED_FIELDS = new Set(['type', 'priority', 'callbackUrl']);

/** The request's Idempotency-Key, if it sent one; the same rule on every route that takes one. */
function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.header('idempotency-key');
  if (key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw apiErrors.invalidRequest('Idempotency-Key must be 1-128 characters of A-Z a-z 0-9 . _ ~ -');
  }
  return key;
}

/** Routes stay thin: check the request, call one service function, answer. */
export function jobsRouter(deps: { jobs: JobsService; config: Pick<Config, 'api' | 'tenants' | 'clients'> }): Router {
  const { jobs, config } = deps;
  const router = Router();
  const apiCallers = authenticate(config.tenants, ['api']);
  const reviewers = authenticate(config.tenants, ['api', 'reviewer']);

  router.post('/jobs', apiCallers, async (req: Request, res: Response) => {
    const keyHeader = idempotencyKeyOf(req);
    const upload = await receiveUpload(req, { maxBytes: config.api.maxUploadBytes, tmpDir: config.api.uploadTmpDir });
    try {
      const unknown = Object.keys(upload.fields).filter((name) => !ALLOWED_FIELDS.has(name));
      if (unknown.length > 0) {
        throw apiErrors.invalidRequest(`unknown field(s) ${unknown.join(', ')}; allowed: file, ${[...ALLOWED_FIELDS].join(', ')}`);
      }
      if (upload.fields.type !== 'invoice') {
        throw apiErrors.invalidRequest('field "type" is required and must be "invoice"', { field: 'type' });
      }
      const priority = (upload.fields.priority ?? 'interactive') as Priority;
      if (!PRIORITIES.includes(priority)) {
        throw apiErrors.invalidRequest(`field "priority" must be one of ${PRIORITIES.join(', ')}`, { field: 'priority' });
      }
      const tenant = callerOf(res).tenant;
      const callbackUrl = upload.fields.callbackUrl ?? tenant.defaultCallbackUrl;
      if (callbackUrl !== undefined) {
        const checked = checkCallbackUrl(callbackUrl, { allowPrivate: config.clients.allowPrivateCallbackUrls });
        const what = upload.fields.callbackUrl !== undefined ? 'field "callbackUrl"' : "the tenant's defaultCallbackUrl";
        if (!checked.ok) throw apiErrors.invalidRequest(`${what} ${checked.reason}`, { field: 'callbackUrl' });
      }
      const { job, replayed } = await jobs.submit({
        tenantId: tenant.id,
        idempotencyKey: keyHeader ?? randomUUID(),
        priority,
        upload,
        ...(callbackUrl !== undefined ? { callbackUrl } : {}),
      });
      res.status(202).location(job.links.self ?? '').set('Idempotent-Replayed', String(replayed));
      res.json({ jobId: job.jobId, status: job.status, links: job.links });
    } finally {
      await upload.cleanup();
    }
  });

  router.get('/jobs', reviewers, async (req: Request, res: Response) => {
    const status = req.query.status;
    if (status !== undefined && !JOB_STATUSES.includes(status as JobStatus)) {
      throw apiErrors.invalidRequest(`status must be one of ${JOB_STATUSES.join(', ')}`, { field: 'status' });
    }
    const limit = req.query.limit === undefined ? 50 : Number(req.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
      throw apiErrors.invalidRequest('limit must be a whole number from 1 to 200', { field: 'limit' });
    }
    const pageToken = typeof req.query.pageToken === 'string' ? req.query.pageToken : undefined;
    res.json(
      await jobs.list(callerOf(res).tenant.id, {
        ...(status ? { status: status as JobStatus } : {}),
        pageSize: limit,
        ...(pageToken ? { pageToken } : {}),
      }),
    );
  });

  router.get('/jobs/:id', reviewers, async (req: Request, res: Response) => {
    const job = await jobs.get(callerOf(res).tenant.id, String(req.params.id));
    const retryAfter = retryAfterSeconds(job.status);
    if (retryAfter !== undefined) res.set('Retry-After', String(retryAfter));
    res.json(job);
  });

  router.post('/jobs/:id/review', reviewers, async (req: Request, res: Response) => {
    const key = idempotencyKeyOf(req);
    const caller = callerOf(res);
    const review = parseReview(req.body, caller.role === 'reviewer' ? `${caller.tenant.id}-reviewer` : `${caller.tenant.id}-api`);
    // The Update is named after the key and the decision: a resend is the same Update, an edited decision a new one.
    const updateId = key === undefined ? undefined : reviewUpdateId(key, review);
    res.json(await jobs.review(caller.tenant.id, String(req.params.id), review, updateId));
  });

  return router;
}

function parseReview(body: unknown, defaultReviewer: string): SubmitReviewInput {
  if (typeof body !== 'object' || body === null) {
    throw apiErrors.invalidRequest('send a JSON body: {"decision":"approve","fields":{...}} or {"decision":"reject","reason":"..."}');
  }
  const { decision, fields, reason, reviewer } = body as Record<string, unknown>;
  const who = typeof reviewer === 'string' && reviewer.trim() !== '' ? reviewer.trim().slice(0, 100) : defaultReviewer;
  if (decision === 'approve') {
    if (typeof fields !== 'object' || fields === null) {
      throw apiErrors.invalidRequest('an approval needs "fields": the invoice as it should be posted', { field: 'fields' });
    }
    // Shape and schema are checked by the service and again by the workflow's update validator.
    return { decision: 'approve', fields: fields as Invoice, reviewer: who };
  }
  if (decision === 'reject') {
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw apiErrors.invalidRequest('a rejection needs a non-empty "reason"', { field: 'reason' });
    }
    return { decision: 'reject', reason: reason.trim().slice(0, 1000), reviewer: who };
  }
  throw apiErrors.invalidRequest('"decision" must be "approve" or "reject"', { field: 'decision' });
}
