import { bodyRef, type Schema } from './refs';
import { errors, json, jobIdParameter } from './responses';

/** The admin routes in the OpenAPI document (document.ts spreads these into `paths`). */

// The route refuses an empty filter (`?errorType=`) with a 400, so the document does too.
const text: Schema = { type: 'string', minLength: 1 };
const problem = (description: string): Schema => ({ description, content: json(bodyRef('ErrorBody')) });
const security = [{ adminKey: [] }];

const query = (name: string, description: string, schema: Schema = text): Schema => ({ name, in: 'query', required: false, description, schema });

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
        query('errorType', 'Only this error type, e.g. `ModelRequestInvalidError`.'),
        query('tenant', 'Only this tenant.'),
        query('olderThan', 'Parked at least this long, e.g. `2h`, `3d`.'),
        query('newerThan', 'Parked at most this long.'),
        query('limit', 'At most this many (1–1000, default 100).', { type: 'integer', minimum: 1, maximum: 1000 }),
      ],
      responses: {
        '200': {
          description: 'The parked jobs.',
          content: json(bodyRef('DeadLetterList')),
        },
        '400': errors[400],
        '401': problem('`unauthorized`: send your operator token (SLOWLANE_OPERATORS) or an OIDC identity token with the operator role as a Bearer token; tenant keys do not work here.'),
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
      parameters: [jobIdParameter, query('dryRun', 'Say what would be done, change nothing.', { type: 'boolean' })],
      requestBody: {
        required: false,
        content: json(bodyRef('ReplayRequest')),
      },
      responses: {
        '200': { description: 'Done (or, in a dry run, what would be done).', content: json(bodyRef('ReplayOutcome')) },
        '400': errors[400],
        '401': problem('`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.'),
        '404': problem('`not_found`: no such job.'),
        '409': problem('`not_replayable`: the job is running and not parked, or it finished; `details.detail` says which.'),
        '413': errors[413],
        '415': errors[415],
        '500': errors[500],
        '503': errors[503],
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
      parameters: [{ name: 'tenantId', in: 'path', required: true, description: 'The tenant id.', schema: { type: 'string' } }],
      responses: {
        '200': { description: 'How many waiting jobs were woken.', content: json(bodyRef('SpendCapRaised')) },
        '401': problem('`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.'),
        '404': problem('`not_found`: no such tenant.'),
        '500': errors[500],
        '503': errors[503],
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
      parameters: [query('limit', 'At most this many (1–1000, default 100).', { type: 'integer', minimum: 1, maximum: 1000 })],
      responses: {
        '200': { description: 'The given-up deliveries.', content: json(bodyRef('GivenUpWebhookList')) },
        '400': errors[400],
        '401': problem('`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.'),
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
          description: 'The delivery, `webhook:<jobId>:<eventId>` as GET /admin/webhooks/given-up lists it (URL-encoded).',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'The event is being delivered again.', content: json(bodyRef('WebhookRedelivery')) },
        '401': problem('`unauthorized`: send your operator token or an OIDC identity token with the operator role as a Bearer token.'),
        '404': problem('`not_found`: no such webhook delivery.'),
        '409': problem('`not_redeliverable`: the delivery is still retrying, or it was delivered; `details.detail` says which.'),
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
