import type { Request } from 'express';
import type { AuditList } from '../../common/api-contract/audit';
import { LIST_PAGE_SIZE } from '../../common/api-contract/schema-kit';
import { canonicalJson } from '../../common/canonical-json';
import { compact } from '../../common/compact';
import type { AuditFilter, AuditTrail } from '../../lib/audit/audit-trail';
import type { Secret } from '../../lib/secret';
import { apiErrors } from '../api-error';
import { pageTokensFor } from '../jobs/page-tokens';
import { checkRequest, requestValidators } from '../request-validation';

/** A listing's query as the trail reads it; query values are text, the limit is read as the number it names. */
export function auditQueryOf(req: Request): { filter: AuditFilter; limit: number; pageToken?: string } {
  const { limit } = req.query;
  const query = checkRequest(requestValidators.listAuditQuery, {
    jobId: req.query.jobId,
    action: req.query.action,
    actor: req.query.actor,
    from: req.query.from,
    to: req.query.to,
    limit: limit === undefined ? undefined : Number(limit),
    pageToken: req.query.pageToken,
  });
  const fromMs = query.from === undefined ? undefined : Date.parse(query.from);
  const toMs = query.to === undefined ? undefined : Date.parse(query.to);
  // RFC 3339 allows a leap second (23:59:60), which Date cannot hold.
  if (Number.isNaN(fromMs)) throw apiErrors.invalidRequest('from is not a time this API can read', { field: 'from' });
  if (Number.isNaN(toMs)) throw apiErrors.invalidRequest('to is not a time this API can read', { field: 'to' });
  // `from` after `to` is an empty window, not a malformed one: it lists nothing (no schema can compare the two).
  const filter: AuditFilter = compact({ jobId: query.jobId, action: query.action, actorId: query.actor, fromMs, toMs });
  return { filter, limit: query.limit ?? LIST_PAGE_SIZE.default, ...(query.pageToken !== undefined ? { pageToken: query.pageToken } : {}) };
}

/**
 * A page of one tenant's audit records. The page token is the key the next page starts after, under the same HMAC
 * as the job list's tokens and bound to the tenant and the filter: a token from another tenant or filter is a 404.
 */
export async function listAudit(
  trail: AuditTrail,
  secret: Secret,
  tenantId: string,
  query: { filter: AuditFilter; limit: number; pageToken?: string },
): Promise<AuditList> {
  const tokens = pageTokensFor(secret, `audit\n${tenantId}\n${canonicalJson(query.filter)}`);
  const after = query.pageToken === undefined ? undefined : tokens.read(query.pageToken);
  if (after === null) throw apiErrors.unknownPage();
  const page = await trail.list(tenantId, query.filter, { limit: query.limit, ...(after ? { after: after.toString('utf8') } : {}) });
  return compact({ records: page.records, nextPageToken: page.after === undefined ? undefined : tokens.write(Buffer.from(page.after, 'utf8')) });
}
