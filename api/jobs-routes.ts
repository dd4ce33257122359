import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { ErrorObject } from 'ajv/dist/2020';
import { LIST_PAGE_SIZE } from '../common/api-contract/job-list';
import type { Submission } from '../common/api-contract/submission';
import { IDEMPOTENCY_KEY_PATTERN } from '../common/job-id';
import type { SubmitReviewInput } from '../common/messages';
import { checkCallbackUrl } from '../lib/callback-url';
import type { Config } from '../lib/config';
import { apiErrors } from './api-error';
import { authenticate, callerOf } from './auth';
import type { JobsService } from './jobs-service';
import { receiveUpload } from './multipart-upload';
import { retryAfterSeconds } from './poll-hint';
import { checkRequest, requestValidators } from './request-validation';
import { reviewUpdateId } from './review-update-id';
import { tenantSlots } from './tenant-slots';
import { isJobType, jobTypeNamed } from '../common/job-types/registry';

/** The request's Idempotency-Key, if it sent one; the same rule on every route that takes one. */
function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.header('idempotency-key');
  if (key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw apiErrors.invalidRequest('Idempotency-Key must be 1-128 characters of A-Z a-z 0-9 . _ ~ -');
  }
  return key;
}

/** A rejected upload comes back soon: most uploads take a second or less on the local network. */
const UPLOAD_RETRY_AFTER_SECONDS = 1;

/** Routes stay thin: check the request, call one service function, answer. */
export function jobsRouter(deps: { jobs: JobsService; config: Pick<Config, 'api' | 'tenants' | 'clients'> }): Router {
  const { jobs, config } = deps;
  const router = Router();
  const apiCallers = authenticate(config.tenants, ['api']);
  const reviewers = authenticate(config.tenants, ['api', 'reviewer']);
  const uploads = tenantSlots(config.api.maxUploadsPerTenant);

  router.post('/jobs', apiCallers, async (req: Request, res: Response) => {
    const keyHeader = idempotencyKeyOf(req);
    const release = uploads.tryAcquire(callerOf(res).tenant.id);
    if (!release) throw apiErrors.tooManyRequests('uploads', uploads.limit, UPLOAD_RETRY_AFTER_SECONDS);
    // Held until the spooled file is gone: the slot stands for disk space as much as for the request.
    let upload: Awaited<ReturnType<typeof receiveUpload>> | undefined;
    try {
      upload = await receiveUpload(req, { maxBytes: config.api.maxUploadBytes, tmpDir: config.api.uploadTmpDir });
      // The file part stands in as its name: its bytes were judged by receiveUpload.
      const form = checkRequest(requestValidators.submitJobForm, { ...upload.fields, file: upload.fileName });
      const type = form.type;
      if (!isJobType(type)) throw apiErrors.invalidRequest(`unknown job type "${type}"`, { field: 'type' });
      // The type's own default: a person waits on an invoice, nobody waits on a digest (bulk).
      const priority = form.priority ?? jobTypeNamed(type)?.defaultPriority ?? 'interactive';
      const tenant = callerOf(res).tenant;
      const callbackUrl = form.callbackUrl ?? tenant.defaultCallbackUrl;
      if (callbackUrl !== undefined) {
        const checked = checkCallbackUrl(callbackUrl, { allowPrivate: config.clients.allowPrivateCallbackUrls });
        const what = form.callbackUrl !== undefined ? 'field "callbackUrl"' : "the tenant's defaultCallbackUrl";
        if (!checked.ok) throw apiErrors.invalidRequest(`${what} ${checked.reason}`, { field: 'callbackUrl' });
      }
      const { job, replayed } = await jobs.submit({
        type,
        tenantId: tenant.id,
        idempotencyKey: keyHeader ?? randomUUID(),
        priority,
        upload,
        ...(callbackUrl !== undefined ? { callbackUrl } : {}),
      });
      res.status(202).location(job.links.self ?? '').set('Idempotent-Replayed', String(replayed));
      const submission: Submission = { jobId: job.jobId, status: job.status, links: job.links };
      res.json(submission);
    } finally {
      await upload?.cleanup();
      release();
    }
  });

  router.get('/jobs', reviewers, async (req: Request, res: Response) => {
    const { limit } = req.query;
    // Query values are text; the limit is read as a number the way the query schema's integer expects.
    const query = checkRequest(requestValidators.listJobsQuery, {
      status: req.query.status,
      limit: limit === undefined ? undefined : Number(limit),
      pageToken: req.query.pageToken,
    });
    res.json(
      await jobs.list(callerOf(res).tenant.id, {
        ...(query.status ? { status: query.status } : {}),
        pageSize: query.limit ?? LIST_PAGE_SIZE.default,
        ...(query.pageToken ? { pageToken: query.pageToken } : {}),
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

const REVIEW_EXAMPLE = '{"decision":"approve","fields":{...}} or {"decision":"reject","reason":"..."}';

/**
 * Problems inside an approval's fields are not the request's shape: the use case answers them with a 422 while the
 * job awaits review, and with a 409 once it moved on (then the fields no longer matter).
 */
const isAboutFieldValues = (error: ErrorObject): boolean =>
  error.instancePath.startsWith('/fields/') || (error.instancePath === '/fields' && error.keyword !== 'type');

function parseReview(body: unknown, defaultReviewer: string): SubmitReviewInput {
  const request = checkRequest(requestValidators.reviewRequest, body, { example: REVIEW_EXAMPLE, deferred: isAboutFieldValues });
  const named = request.reviewer?.trim();
  const reviewer = named ? named.slice(0, 100) : defaultReviewer;
  if (request.decision === 'approve') return { decision: 'approve', fields: request.fields, reviewer };
  return { decision: 'reject', reason: request.reason.trim().slice(0, 1000), reviewer };
}
