import { jobIdFor, scheduleJobKey } from '../../common/job-id';
import type { JobType } from '../../common/job';

/**
 * A schedule's Temporal id carries its tenant, so one tenant's id can never name another's schedule: a foreign id
 * is simply not found, the same answer as a missing one.
 */
export const temporalScheduleId = (tenantId: string, scheduleId: string): string => `${tenantId}:${scheduleId}`;

/**
 * The workflow id of the schedule's action: a job id whose key is `schedule.<id>`. Temporal appends each run's
 * scheduled time, so every run is an ordinary job (`GET /jobs/{id}`) and the same time can never run twice.
 */
export const scheduleActionJobId = (type: JobType, tenantId: string, scheduleId: string): string =>
  jobIdFor(type, tenantId, scheduleJobKey(scheduleId));
