import { type Static, Type } from '@sinclair/typebox';
import { Links } from './job-parts';
import { closed, dateTime, nextPageToken, pageLimit, pageToken, ref } from './schema-kit';
import { JobStatus, JobStep, JobType, Priority } from './vocabulary';

/** One job in `GET /jobs`: what Temporal visibility knows without asking a worker. */
export const JobSummary = closed({
  jobId: Type.String(),
  type: Type.Optional(ref('JobType', JobType)),
  status: ref('JobStatus', JobStatus),
  step: Type.Optional(ref('JobStep', JobStep)),
  priority: Type.Optional(ref('Priority', Priority)),
  fileName: Type.Optional(Type.String()),
  name: Type.Optional(Type.String({ description: 'What a JSON job is called: the input’s value its type names it by (an order’s id). File jobs go by `fileName`.' })),
  submittedAt: Type.Optional(dateTime()),
  reviewDeadline: Type.Optional(dateTime()),
  links: ref('Links', Links),
});
export type JobSummary = Static<typeof JobSummary>;

export const JobList = closed({
  jobs: Type.Array(ref('JobSummary', JobSummary)),
  nextPageToken: nextPageToken(),
});
export type JobList = Static<typeof JobList>;

/** The query of `GET /jobs`; the OpenAPI document lists each member as a query parameter. */
export const ListJobsQuery = closed({
  type: Type.Optional(ref('JobType', JobType)),
  status: Type.Optional(ref('JobStatus', JobStatus)),
  limit: pageLimit(),
  pageToken: pageToken(),
});
export type ListJobsQuery = Static<typeof ListJobsQuery>;
