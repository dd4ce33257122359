import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { ErrorObject } from 'ajv/dist/2020';
import { LIST_PAGE_SIZE } from '../common/api-contract/schema-kit';
import type { Submission } from '../common/api-contract/submission';
import { IDEMPOTENCY_KEY_PATTERN } from '../common/job-id';
import type { JobTypeDefinition } from '../common/job-types/job-type';
import { JOB_TYPE_DEFINITIONS, jobTypeNamed } from '../common/job-types/registry';
import type { Priority } from '../common/task-queues';
import type { SubmitReviewInput } from '../common/messages';
import { callbackUrlPolicy, checkCallbackUrl } from '../lib/callback-url';
import type { Tenant } from '../lib/config/tenants';
import type { Config } from '../lib/config';
import type { AuditTrail } from '../lib/audit/audit-trail';
import type { Logger } from '../lib/logger';
import { apiErrors } from './api-error';
import { actorOfCaller } from './audit/audit-actors';
import { audited } from './audit/audited';
import { authenticate, callerOf } from './auth';
import type { JobsService } from './jobs-service';
import { checkFileInput } from './jobs/check-file-input';
import { largestUploadBytes, limitSettingsOf } from './jobs/input-limits';
import { receiveUpload } from './multipart-upload';
import { retryAfterSeconds } from './poll-hint';
import { requestIdOf } from './request-id';
import { checkRequest, requestValidators } from './request-validation';
import { reviewUpdateId } from './review-update-id';
import { tenantSlots } from './tenant-slots';

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
export function jobsRouter(deps: {
  jobs: JobsService;
  audit: AuditTrail;
  config: Pick<Config, 'api' | 'tenants' | 'people' | 'clients' | 'document' | 'anthropic' | 'call' | 'deployment'>;
  log: Logger;
}): Router {
  const { jobs, config } = deps;
  const router = Router();
  const apiCallers = authenticate(config, ['api']);
  const reviewers = authenticate(config, ['api', 'reviewer']);
  const uploads = tenantSlots(config.api.maxUploadsPerTenant);
  const limitSettings = limitSettingsOf(config);
  const receiveLimitBytes = largestUploadBytes(JOB_TYPE_DEFINITIONS, limitSettings);

  /** The job's callback URL: its own, else the tenant's default, refused when it points somewhere it may not. */
  function callbackUrlFor(given: string | undefined, tenant: Tenant): string | undefined {
    const callbackUrl = given ?? tenant.defaultCallbackUrl;
    if (callbackUrl !== undefined) {
      const checked = checkCallbackUrl(callbackUrl, callbackUrlPolicy(config));
      const what = given !== undefined ? 'field "callbackUrl"' : "the tenant's defaultCallbackUrl";
      if (!checked.ok) throw apiErrors.invalidRequest(`${what} ${checked.reason}`, { field: 'callbackUrl' });
    }
    return callbackUrl;
  }

  function answerSubmission(res: Response, { job, replayed }: { job: Submission & { links: Submission['links'] }; replayed: boolean }): void {
    res.status(202).location(job.links.self ?? '').set('Idempotent-Replayed', String(replayed));
    const submission: Submission = { jobId: job.jobId, status: job.status, links: job.links };
    res.json(submission);
  }

  router.post('/jobs', apiCallers, async (req: Request, res: Response) => {
    const keyHeader = idempotencyKeyOf(req);
    // A JSON body names a JSON-input type (order.score, …); a multipart form uploads a file for a file type.
    if (req.is('application/json')) {
      refuseJsonForFileTypes(req.body);
      const request = checkRequest(requestValidators.submitJobRequest, req.body, { example: SUBMIT_EXAMPLE });
      const jobType = jobTypeNamed(request.type) as JobTypeDefinition;
      const tenant = callerOf(res).tenant;
      const callbackUrl = callbackUrlFor(request.callbackUrl, tenant);
      answerSubmission(
        res,
        await jobs.submitJson({
          jobType,
          tenantId: tenant.id,
          idempotencyKey: keyHeader ?? randomUUID(),
          priority: priorityFor(jobType, request.priority),
          input: request.input,
          ...(callbackUrl !== undefined ? { callbackUrl } : {}),
          ...(request.deadline !== undefined ? { deadline: request.deadline } : {}),
        }),
      );
      return;
    }
    const release = uploads.tryAcquire(callerOf(res).tenant.id);
    if (!release) throw apiErrors.tooManyRequests('uploads', uploads.limit, UPLOAD_RETRY_AFTER_SECONDS);
    // Held until the spooled file is gone: the slot stands for disk space as much as for the request.
    let upload: Awaited<ReturnType<typeof receiveUpload>> | undefined;
    try {
      upload = await receiveUpload(req, { maxBytes: receiveLimitBytes, tmpDir: config.api.uploadTmpDir });
      // The file part stands in as its name: its bytes were judged by receiveUpload.
      const form = checkRequest(requestValidators.submitJobForm, { ...upload.fields, file: upload.fileName });
      const jobType = jobTypeNamed(form.type) as JobTypeDefinition;
      // Every limit the type declares, before anything is stored or started (the same 413s for every type).
      await checkFileInput(jobType, upload, limitSettings);
      const tenant = callerOf(res).tenant;
      const callbackUrl = callbackUrlFor(form.callbackUrl, tenant);
      answerSubmission(
        res,
        await jobs.submitFile(jobType, {
          tenantId: tenant.id,
          idempotencyKey: keyHeader ?? randomUUID(),
          priority: priorityFor(jobType, form.priority),
          upload,
          ...(callbackUrl !== undefined ? { callbackUrl } : {}),
          ...(form.deadline !== undefined ? { deadline: form.deadline } : {}),
        }),
      );
    } finally {
      await upload?.cleanup();
      release();
    }
  });

  router.get('/jobs', reviewers, async (req: Request, res: Response) => {
    const { limit } = req.query;
    // Query values are text; the limit is read as a number the way the query schema's integer expects.
    const query = checkRequest(requestValidators.listJobsQuery, {
      type: req.query.type,
      status: req.query.status,
      limit: limit === undefined ? undefined : Number(limit),
      pageToken: req.query.pageToken,
    });
    res.json(
      await jobs.list(callerOf(res).tenant.id, {
        ...(query.type ? { type: query.type } : {}),
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

  router.delete('/jobs/:id', apiCallers, async (req: Request, res: Response) => {
    const requestId = requestIdOf(req);
    const caller = callerOf(res);
    const tenantId = caller.tenant.id;
    const jobId = String(req.params.id);
    // A retried DELETE of a job already erased is a 404: the request id, not the job, names the record.
    const erasure = await audited(
      deps.audit,
      { action: 'job.erase', tenantId, jobId, actor: actorOfCaller(caller), requestId, idempotencyKey: requestId },
      () => jobs.erase(tenantId, jobId),
    );
    deps.log.info({ audit: 'erasure', tenantId, jobId, requestId, erased: erasure.erased, kept: erasure.kept }, 'job erased');
    res.set('X-Request-Id', requestId).json(erasure);
  });

  router.post('/jobs/:id/cancel', apiCallers, async (req: Request, res: Response) => {
    const { job, closed } = await jobs.cancel(callerOf(res).tenant.id, String(req.params.id));
    res.status(closed ? 200 : 202).json(job);
  });

  router.post('/jobs/:id/review', reviewers, async (req: Request, res: Response) => {
    const key = idempotencyKeyOf(req);
    const caller = callerOf(res);
    const review = parseReview(req.body, caller.identity);
    // The Update is named after the key and the decision: a resend is the same Update, an edited decision a new one.
    const updateId = key === undefined ? undefined : reviewUpdateId(key, review);
    const jobId = String(req.params.id);
    const requestId = requestIdOf(req);
    // Recorded under the Update's id when there is one, so a resent decision is the same record as it is the same Update.
    const job = await audited(
      deps.audit,
      {
        action: review.decision === 'approve' ? 'review.approve' : 'review.reject',
        tenantId: caller.tenant.id,
        jobId,
        actor: actorOfCaller(caller),
        requestId,
        idempotencyKey: updateId ?? requestId,
        // Whether fields were sent, never their values or the reason's text: those stay in the job's encrypted history.
        details: review.decision === 'approve' ? { fieldsSent: review.fields !== undefined } : {},
      },
      () => jobs.review(caller.tenant.id, jobId, review, updateId),
    );
    deps.log.info({ audit: 'review', tenantId: caller.tenant.id, jobId, reviewer: caller.identity, via: caller.via, decision: review.decision, requestId }, 'review decision');
    res.set('X-Request-Id', requestId).json(job);
  });

  return router;
}

const SUBMIT_EXAMPLE = '{"type":"order.score","input":{...}} (file types upload a multipart form instead)';
const typesTaking = (kind: 'file' | 'json'): string[] =>
  JOB_TYPE_DEFINITIONS.filter((definition) => definition.input.kind === kind).map((definition) => definition.name);

/** A JSON body for a file type (or for none) is a 400 that says how each kind of job is sent. */
function refuseJsonForFileTypes(body: unknown): void {
  const named = (body as { type?: unknown } | null | undefined)?.type;
  if (typeof named === 'string' && typesTaking('json').includes(named)) return;
  throw apiErrors.invalidRequest(
    `a JSON body submits ${typesTaking('json').join(', ')} jobs; ${typesTaking('file').join(', ')} jobs upload their file as multipart/form-data`,
    { field: 'type' },
  );
}

/** The request's priority, else the type's default; a type runs only on the queues it names. */
function priorityFor(jobType: JobTypeDefinition, requested: Priority | undefined): Priority {
  const priority = requested ?? jobType.defaultPriority;
  if (!jobType.priorities.includes(priority)) {
    throw apiErrors.invalidRequest(`${jobType.name} jobs run at ${jobType.priorities.join(' or ')}, not ${priority}`, { field: 'priority' });
  }
  return priority;
}

const REVIEW_EXAMPLE = '{"decision":"approve","fields":{...}} or {"decision":"reject","reason":"..."}';

/**
 * Problems inside an approval's fields are not the request's shape: the use case answers them with a 422 while the
 * job awaits review, and with a 409 once it moved on (then the fields no longer matter).
 */
const isAboutFieldValues = (error: ErrorObject): boolean =>
  error.instancePath.startsWith('/fields/') || (error.instancePath === '/fields' && error.keyword !== 'type');

/** The reviewer recorded is who signed in; a body naming someone else is refused rather than believed. */
function parseReview(body: unknown, reviewer: string): SubmitReviewInput {
  const request = checkRequest(requestValidators.reviewRequest, body, { example: REVIEW_EXAMPLE, deferred: isAboutFieldValues });
  if (request.reviewer !== undefined && request.reviewer.trim() !== reviewer) {
    throw apiErrors.notYou('reviewer', reviewer);
  }
  if (request.decision === 'approve') return { decision: 'approve', fields: request.fields, reviewer };
  return { decision: 'reject', reason: request.reason.trim().slice(0, 1000), reviewer };
}
