import type { JobEvent, JobProgress, JobStatus, JobStep } from '../../common/job';
import { compact } from '../../common/compact';
import type { JobReader } from './job-reader';

export interface JobEvents {
  status: JobStatus;
  step?: JobStep;
  events?: JobEvent[];
  /** The latest progress of a fan-out: the workflow's, else the memo's (it carries its seq, so it is sent with no worker). */
  progress?: JobProgress;
}

/** `GET /jobs/:id/events`: the job's events so far. Without a worker only the server-side status is known: `events` is absent. */
export function createJobEvents(reader: JobReader) {
  return async function jobEvents(tenantId: string, jobId: string): Promise<JobEvents> {
    const description = await reader.getOwnedJob(tenantId, jobId);
    const state = await reader.stateOf(description);
    const base = reader.baseOf(description);
    if (state) return compact({ status: state.status, step: state.step, events: state.events, progress: state.progress ?? base.progress });
    return compact({ status: base.status, step: base.step, progress: base.progress });
  };
}
