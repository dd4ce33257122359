import { AuditUnavailableError, type AuditEntry, type AuditTrail } from '../../lib/audit/audit-trail';
import { ApiError } from '../api-error';

/**
 * Runs an action a person or an operator asked for under its audit record: the record is written first, and when
 * it cannot be, the action is not taken and the request answers 503 `audit_unavailable`. After the action, its
 * outcome is written beside the record: `done`, `refused` for a 4xx answer, `failed` for anything else.
 */
export async function audited<T>(trail: AuditTrail, entry: AuditEntry, act: () => Promise<T>): Promise<T> {
  const handle = await trail.begin(entry).catch((error: unknown) => {
    throw error instanceof AuditUnavailableError ? auditUnavailable() : error;
  });
  try {
    const result = await act();
    await handle.finish('done');
    return result;
  } catch (error) {
    const refused = error instanceof ApiError && error.status < 500;
    await handle.finish(refused ? 'refused' : 'failed', error instanceof ApiError ? error.code : 'internal');
    throw error;
  }
}

export const auditUnavailable = () =>
  new ApiError(503, 'audit_unavailable', 'the audit trail cannot be written right now, so nothing was done; send the request again shortly');
