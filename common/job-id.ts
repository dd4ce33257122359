import type { JobType } from './job';

/**
 * The job id is the workflow id: `<jobType>:<tenantId>:<idempotencyKey>`, with `:`
 * rather than `/` so the id travels in URL paths without escaping. Starting a workflow with this id and the
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
  /** For a run a schedule started: its scheduled time, which Temporal appended to the action's workflow id. */
  scheduledAt?: string;
}

/**
 * A schedule's runs: Temporal starts each with the action's workflow id plus `-<scheduled time, RFC 3339>`, so the
 * id of the run at a given time is fixed and a run is never started twice. The action's id is a job id whose key is
 * `schedule.<scheduleId>`; the time brings colons of its own, which is why the key is read from the third colon on.
 */
const SCHEDULED_RUN_KEY = /^(schedule\.[A-Za-z0-9._~-]{1,80})-(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)$/;

export function scheduleJobKey(scheduleId: string): string {
  return `schedule.${scheduleId}`;
}

export function parseJobId(jobId: string): ParsedJobId | undefined {
  const [jobType, tenantId, ...rest] = jobId.split(':');
  const key = rest.join(':');
  if (jobType === undefined || tenantId === undefined || rest.length === 0 || !TENANT_ID_PATTERN.test(tenantId)) return undefined;
  if (rest.length === 1 && IDEMPOTENCY_KEY_PATTERN.test(key)) return { jobType, tenantId, idempotencyKey: key };
  const scheduled = SCHEDULED_RUN_KEY.exec(key);
  if (!scheduled) return undefined;
  return { jobType, tenantId, idempotencyKey: scheduled[1] as string, scheduledAt: scheduled[2] as string };
}
