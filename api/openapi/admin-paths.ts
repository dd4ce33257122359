import { ListAuditQuery, PLATFORM_TRAIL } from '../../common/api-contract/audit';
import { TENANT_ID_PATTERN } from '../../common/job-id';
import { DURATION_PATTERN } from '../../lib/duration';
import { ERROR_TYPE_PATTERN } from '../../ops/dead-letter-query';
import { auditQueryDescriptions } from './audit-paths';
import { bodyRef, queryParameters, type Schema } from './refs';
import { errors, json, jobIdParameter } from './responses';

/** The admin routes in the OpenAPI document (document.ts spreads these into `paths`). */

// The route refuses an empty filter (`?errorType=`) with a 400, so the document does too.
const text: Schema = { type: 'string', minLength: 1 };
// Each filter's pattern is the one the route and the visibility query hold it to.
const tenantId: Schema = { type: 'string', pattern: TENANT_ID_PATTERN.source };
const duration: Schema = { type: 'string', pattern: DURATION_PATTERN.source };
const problem = (description: string): Schema => ({ description, content: json(bodyRef('ErrorBody')) });
const security = [{ adminKey: [] }];

const query = (name: string, description: string, schema: Schema = text): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
const unauthorized = problem(
  '`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.',
);
const auditUnavailable = problem(
  '`audit_unavailable`: the action could not be recorded in the audit trail, so it was not taken; send it again. Or `temporal_unavailable`.',
);
/** A retried operator action with the same key is the same audit record (docs/security.md#audit-trail). */
const idempotencyKey: Schema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Names the action in the audit trail: a retry with the same key is the same record. Without it, the `X-Request-Id` does.',
  schema: { type: 'string' },
};
const requestIdHeader = {
  'X-Request-Id': { description: 'The request id the audit record carries.', schema: { type: 'string' } },
};

export const adminPaths: Record<string, Schema> = {
  '/admin/dead-letters': {
    get: {
      operationId: 'listDeadLetters',
      summary: 'Parked jobs across tenants, with their errors',
      description:
        'Jobs whose step failed for good and that wait for an operator’s retry or abandon, oldest first. Read from Temporal visibility, so it answers while workers are down. `query` is the same filter as a Temporal Web UI search.',
      tags: ['admin'],
      security,
      parameters: [
        query('step', 'Only jobs parked at this step.', bodyRef('JobStep')),
        query('errorType', 'Only this error type, e.g. `ModelRequestInvalidError`.', {
          type: 'string',
          pattern: ERROR_TYPE_PATTERN.source,
        }),
        query('tenant', 'Only this tenant.', tenantId),
        query('olderThan', 'Parked at least this long, e.g. `2h`, `3d`.', duration),
        query('newerThan', 'Parked at most this long.', duration),
        query('limit', 'At most this many (1–1000, default 100).', { type: 'integer', minimum: 1, maximum: 1000 }),
      ],
      responses: {
        '200': {
          description: 'The parked jobs.',
          content: json(bodyRef('DeadLetterList')),
        },
        '400': errors[400],
        '401': problem(
          '`unauthorized`: send your operator token (SLOWLANE_OPERATORS) or an OIDC identity token with the operator role as a Bearer token; tenant keys do not work here.',
        ),
        '500': errors[500],
        '503': errors[503],
      },
    },
  },
  '/admin/jobs/{id}/replay': {
    post: {
      operationId: 'replayJob',
      summary: 'Bring a job back after a fix',
      description:
        'A parked dead letter gets the `retry` Update and resumes at its failed step; a job that closed as failed is reset to the workflow task before its failed step, so finished steps keep their results. Running jobs that are not parked, and finished ones, are refused (409).',
      tags: ['admin'],
      security,
      parameters: [
        jobIdParameter,
        query('dryRun', 'Say what would be done, change nothing (not recorded in the audit trail).', {
          type: 'boolean',
        }),
        idempotencyKey,
      ],
      requestBody: {
        required: false,
        content: json(bodyRef('ReplayRequest')),
      },
      responses: {
        '200': {
          description: 'Done (or, in a dry run, what would be done).',
          headers: requestIdHeader,
          content: json(bodyRef('ReplayOutcome')),
        },
        '400': errors[400],
        '401': problem(
          '`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.',
        ),
        '403': errors[403],
        '404': problem('`not_found`: no such job.'),
        '409': problem(
          '`not_replayable`: the job is running and not parked, or it finished; `details.detail` says which.',
        ),
        '413': errors[413],
        '415': errors[415],
        '500': errors[500],
        '503': auditUnavailable,
      },
    },
  },
  '/admin/tenants/{tenantId}/spend-cap-raised': {
    post: {
      operationId: 'spendCapRaised',
      summary: 'Wake a tenant’s jobs waiting for its spend cap',
      description:
        'After raising the tenant’s cap in TENANT_SPEND_CAPS and restarting the workers (settings are read at start), tells every job of the tenant in `budget_wait` to run its step again now instead of when the window turns. A job whose cap is still too low waits again.',
      tags: ['admin'],
      security,
      parameters: [
        { name: 'tenantId', in: 'path', required: true, description: 'The tenant id.', schema: { type: 'string' } },
        idempotencyKey,
      ],
      responses: {
        '200': {
          description: 'How many waiting jobs were woken.',
          headers: requestIdHeader,
          content: json(bodyRef('SpendCapRaised')),
        },
        '401': problem(
          '`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.',
        ),
        '404': problem('`not_found`: no such tenant, or a `pageToken` this list did not give out.'),
        '500': errors[500],
        '503': auditUnavailable,
      },
    },
  },
  '/admin/webhooks/given-up': {
    get: {
      operationId: 'listGivenUpWebhooks',
      summary: 'Webhook deliveries given up and not redelivered',
      description:
        'Deliveries that ended without a 2xx: the receiver answered 410 Gone, the callback URL was refused, or a day of retries ran out (alert SlowlaneWebhooksGivenUp). Read from Temporal visibility.',
      tags: ['admin'],
      security,
      parameters: [
        query('limit', 'At most this many (1–1000, default 100).', { type: 'integer', minimum: 1, maximum: 1000 }),
      ],
      responses: {
        '200': { description: 'The given-up deliveries.', content: json(bodyRef('GivenUpWebhookList')) },
        '400': errors[400],
        '401': problem(
          '`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.',
        ),
        '500': errors[500],
        '503': errors[503],
      },
    },
  },
  '/admin/webhooks/{deliveryId}/redeliver': {
    post: {
      operationId: 'redeliverWebhook',
      summary: 'Deliver a given-up webhook again',
      description:
        'Resets the given-up delivery to its start: the same event (same `webhook-id`) is signed and sent again, with a fresh day of retries. A delivery still retrying, or one that was delivered, is refused (409).',
      tags: ['admin'],
      security,
      parameters: [
        {
          name: 'deliveryId',
          in: 'path',
          required: true,
          description:
            'The delivery, `webhook:<jobId>:<eventId>` as GET /admin/webhooks/given-up lists it (URL-encoded).',
          schema: { type: 'string' },
        },
        idempotencyKey,
      ],
      responses: {
        '200': {
          description: 'The event is being delivered again.',
          headers: requestIdHeader,
          content: json(bodyRef('WebhookRedelivery')),
        },
        '401': problem(
          '`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.',
        ),
        '404': problem('`not_found`: no such webhook delivery.'),
        '409': problem(
          '`not_redeliverable`: the delivery is still retrying, or it was delivered; `details.detail` says which.',
        ),
        '500': errors[500],
        '503': auditUnavailable,
      },
    },
  },
  '/admin/jobs/{id}/abandon': {
    post: {
      operationId: 'abandonJob',
      summary: 'Give up on a parked dead letter',
      description:
        'Sends the job’s `abandon` Update: the job closes as failed with the error it parked with (`npm run replay` can still bring it back). A job that is not parked is refused (409). Recorded in the audit trail before it is sent; the reason is not.',
      tags: ['admin'],
      security,
      parameters: [jobIdParameter, idempotencyKey],
      requestBody: { required: false, content: json(bodyRef('AbandonRequest')) },
      responses: {
        '200': { description: 'Abandoned.', headers: requestIdHeader, content: json(bodyRef('AbandonOutcome')) },
        '400': errors[400],
        '401': unauthorized,
        '403': errors[403],
        '404': problem('`not_found`: no such job.'),
        '409': problem('`not_abandonable`: the job is not a parked dead letter; `details.detail` says what it is.'),
        '413': errors[413],
        '415': errors[415],
        '500': errors[500],
        '503': auditUnavailable,
      },
    },
  },
  '/admin/audit': {
    get: {
      operationId: 'listAuditRecordsOfTenant',
      summary: 'Any tenant’s audit trail',
      description:
        'The same records and filters as `GET /audit`, for the tenant named by `tenant`: reviewers’ decisions, erasures and operators’ actions on its jobs, newest first. `tenant=_platform` reads the actions on the whole deployment: payload key rotations (`npm run codec-key -- rotate`).',
      tags: ['admin'],
      security,
      parameters: [
        {
          name: 'tenant',
          in: 'query',
          required: true,
          description:
            'The tenant whose records to read, or `_platform` for key rotations; a tenant this deployment does not have is a 404.',
          schema: { type: 'string', pattern: `^(?:${TENANT_ID_PATTERN.source.slice(1, -1)}|${PLATFORM_TRAIL})$` },
        },
        ...queryParameters(ListAuditQuery, auditQueryDescriptions),
      ],
      responses: {
        '200': { description: 'A page of records, newest first.', content: json(bodyRef('AuditList')) },
        '400': errors[400],
        '401': unauthorized,
        '404': problem('`not_found`: no such tenant.'),
        '500': errors[500],
        '503': errors[503],
      },
    },
  },
};

/** components.securitySchemes entry for an operator's credential. */
export const adminKeyScheme: Schema = {
  type: 'http',
  scheme: 'bearer',
  description:
    'An operator’s own token (SLOWLANE_OPERATORS; `npm start` prints the local one) or an OIDC identity token whose roles claim has `operator`. Sees every tenant; the operator is recorded with each replay.',
};
