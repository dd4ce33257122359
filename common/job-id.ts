import type { JobType } from './job';

/**
 * The job id is the workflow id: `<jobType>:<tenantId>:<idempotencyKey>`. DESIGN.md writes it with `/`;
 * we use `:` so the id travels in URL paths without escaping. Starting a workflow with this id and the
 * conflict policy "use existing" is what makes a repeated request return the same job.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._~-]{1,128}$/;
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function jobIdFor(jobType: JobType, tenantId: string, idempotencyKey: string): string {
  return `${jobType}:${tenantId}:${idempotencyKey}`;
}

export interface ParsedJobId {
  jobType: string;
  tenantId: string;
  idempotencyKey: string;
}

export function parseJobId(jobId: string): ParsedJobId | undefined {
  const parts = jobId.split(':');
  if (parts.length !== 3) return undefined;
  const [jobType, tenantId, idempotencyKey] = parts as [string, string, string];
  if (!TENANT_ID_PATTERN.test(tenantId) || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) return undefined;
  return { jobType, tenantId, idempotencyKey };
}
