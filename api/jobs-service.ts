import type { Job } from '../common/api-contract/job';
import { createCancelJob } from './jobs/cancel-job';
import { createEraseJob } from './jobs/erase-job';
import { createJobEvents } from './jobs/job-events';
import { createOpenDocument } from './jobs/job-document';
import { createJobReader } from './jobs/job-reader';
import type { JobsDeps } from './jobs/jobs-deps';
import { createListJobs } from './jobs/list-jobs';
import { createReadTranscript } from './jobs/job-transcript';
import { createReviewJob } from './jobs/review-job';
import { createSubmitJob } from './jobs/submit-job';

// The snapshot type the events route and its tests work with.
export type { JobEvents } from './jobs/job-events';

/** The job use cases the routes call, one per route, built once from the Temporal client, the store and config. */
export function createJobsService(deps: JobsDeps) {
  const reader = createJobReader(deps);
  return {
    ...createSubmitJob(deps, reader),
    get: async (tenantId: string, jobId: string): Promise<Job> => reader.view(await reader.getOwnedJob(tenantId, jobId)),
    list: createListJobs(deps),
    review: createReviewJob(deps, reader),
    cancel: createCancelJob(deps, reader),
    erase: createEraseJob(deps, reader),
    events: createJobEvents(reader),
    openDocument: createOpenDocument(deps, reader),
    transcript: createReadTranscript(deps, reader),
  };
}

export type JobsService = ReturnType<typeof createJobsService>;
