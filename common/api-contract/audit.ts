import { type Static, Type } from '@sinclair/typebox';
import { closed, dateTime, nextPageToken, pageLimit, pageToken, ref, stringEnum } from './schema-kit';

/** The audit trail's bodies: `GET /audit` (a tenant's own) and `GET /admin/audit` (an operator's, any tenant). */

/** The trail of actions on the whole deployment (key rotation): `_` is in no tenant id (TENANT_ID_PATTERN). */
export const PLATFORM_TRAIL = '_platform';

/**
 * What a person or an operator did to a tenant's jobs (or, for a spend cap, to the tenant), or to the whole
 * deployment (`codec-key.rotate`, in the platform's trail: PLATFORM_TRAIL).
 */
export const AUDIT_ACTIONS = [
  'review.approve',
  'review.reject',
  'job.erase',
  /** The retention sweep erased a job closed longer ago than its tenant's retention. */
  'job.expire',
  'job.replay',
  'job.abandon',
  'tenant.spend-cap-raised',
  'webhook.redeliver',
  'codec-key.rotate',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AuditActionName = stringEnum(AUDIT_ACTIONS);

/**
 * How the action ended. `pending`: recorded before it took effect and no outcome was written after (the API
 * stopped, or S3 failed at that moment): the job's own state says whether it happened.
 */
export const AUDIT_OUTCOMES = ['done', 'refused', 'failed', 'pending'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AuditActor = closed({
  kind: stringEnum(['reviewer', 'operator', 'api-key', 'system'] as const),
  id: Type.String({
    description:
      'The reviewer’s or operator’s id (or OIDC `sub`); `api-key` for the tenant’s key; `system:retention` for the retention sweep.',
  }),
  via: Type.String({
    description:
      'How they signed in: `token`, `oidc` or `api-key`; `cli` for a command run where the deployment’s secrets are, which records the name it was given; `schedule` for the retention sweep.',
  }),
});
export type AuditActor = Static<typeof AuditActor>;

/** Facts about the action, never document content, free text or secrets: ids, counts, decisions. */
const detailValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

export const AuditRecord = closed({
  recordId: Type.String({
    description: 'Stable for the action: a retried request with the same idempotency key is this record again.',
  }),
  at: dateTime(),
  action: ref('AuditActionName', AuditActionName),
  tenantId: Type.String({
    description: 'The tenant acted on; `_platform` (no tenant’s id) for an action on the whole deployment.',
  }),
  jobId: Type.Optional(Type.String()),
  actor: ref('AuditActor', AuditActor),
  requestId: Type.String({
    description: 'The request’s `X-Request-Id` (the caller’s when it sent a plain token, else the API’s).',
  }),
  details: Type.Record(Type.String(), detailValue),
  outcome: stringEnum(AUDIT_OUTCOMES, {
    description:
      '`done`, `refused` (a 4xx: nothing changed), `failed` (a 5xx: retry it), or `pending` (no outcome was written).',
  }),
  outcomeAt: Type.Optional(dateTime()),
  outcomeCode: Type.Optional(
    Type.String({ description: 'The error code the action answered with, when it was refused or failed.' }),
  ),
});
export type AuditRecord = Static<typeof AuditRecord>;

export const AuditList = closed({
  records: Type.Array(ref('AuditRecord', AuditRecord)),
  nextPageToken: nextPageToken(),
});
export type AuditList = Static<typeof AuditList>;

/** The query of `GET /audit` and `GET /admin/audit`; the OpenAPI document lists each member as a query parameter. */
export const ListAuditQuery = closed({
  jobId: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
  action: Type.Optional(ref('AuditActionName', AuditActionName)),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  from: Type.Optional(dateTime()),
  to: Type.Optional(dateTime()),
  limit: pageLimit(),
  pageToken: pageToken(),
});
export type ListAuditQuery = Static<typeof ListAuditQuery>;
