import type { JobEvent, JobStatus, JobStep } from '../../common/job';
import { compact } from '../../common/compact';
import type { JobReader } from './job-reader';

export interface JobEvents {
  status: JobStatus;
  step?: JobStep;
  events?: JobEvent[];
}

/** `GET /jobs/:id/events`: the job's events so far. Without a worker only the server-side status is known: `events` is absent. */
export function createJobEvents(reader: JobReader) {
  return async function jobEvents(tenantId: string, jobId: string): Promise<JobEvents> {
    const description = await reader.getOwnedJob(tenantId, jobId);
    const state = await reader.stateOf(description);
    if (state) return compact({ status: state.status, step: state.step, events: state.events });
    const base = reader.baseOf(description);
    return compact({ status: base.status, step: base.step });
  };
}
