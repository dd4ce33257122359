import type { JobSetting, JobTypeDefinition } from '../../common/job-types/job-type';
import type { Config } from '../../lib/config';

/** The deployment's job settings a type's input carries (its definition's `settings`): a submitted job and a schedule's runs alike. */
export function typeSettings(jobType: JobTypeDefinition, jobs: Pick<Config['jobs'], JobSetting>): Partial<Pick<Config['jobs'], JobSetting>> {
  return Object.fromEntries((jobType.settings ?? []).map((name) => [name, jobs[name]]));
}
