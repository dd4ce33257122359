import { ListAuditQuery } from '../../common/api-contract/audit';
import { bodyRef, queryParameters, type Schema } from './refs';
import { json, responses } from './responses';

export const auditQueryDescriptions = {
  jobId: 'Only records about this job.',
  action: 'Only this action.',
  actor: 'Only this reviewer’s or operator’s id (`api-key` for the tenant’s key).',
  from: 'Only records written at or after this time.',
  to: 'Only records written at or before this time.',
  limit: 'At most this many records (a page may hold fewer; follow `nextPageToken`).',
  pageToken: 'The `nextPageToken` of the previous page, with the same filters.',
};

/** `GET /audit`: the tenant's own trail (docs/security.md#audit-trail). */
export const auditPaths: Record<string, Schema> = {
  '/audit': {
    get: {
      operationId: 'listAuditRecords',
      summary: 'The tenant’s audit trail',
      description:
        'Every reviewer decision, erasure and operator action (replay, abandon, spend cap raised, webhook redelivery) on this tenant’s jobs, newest first: who, when, what, the request id and how it ended. ' +
        'Records are written before the action takes effect and never changed or deleted. They hold ids and decisions, not document content or free text.',
      tags: ['audit'],
      security: [{ apiKey: [] }],
      parameters: queryParameters(ListAuditQuery, auditQueryDescriptions),
      responses: responses({ '200': { description: 'A page of records, newest first.', content: json(bodyRef('AuditList')) } }, 400, 401, 404, 503),
    },
  },
};
