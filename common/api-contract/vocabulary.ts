import { JOB_STATUSES, JOB_STEPS, JOB_TYPES } from '../job';
import { PRIORITIES } from '../task-queues';
import { stringEnum } from './schema-kit';

export const JobStatus = stringEnum(JOB_STATUSES, {
  description:
    'queued → processing (with step) → awaiting_review → posted | completed | rejected | review_expired | failed; dead_letter while a failed step waits for an operator; budget_wait (with step) while the next model call would pass the tenant’s spend cap; cancelled when a client cancelled it.',
});
export const JobStep = stringEnum(JOB_STEPS);
export const JobType = stringEnum(JOB_TYPES);
export const Priority = stringEnum(PRIORITIES);
