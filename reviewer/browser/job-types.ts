import reviewerViews from 'virtual:reviewer-views';
import { nameFromInput } from '../../common/job-types/job-name';
import type { ReviewerField, ReviewerView } from '../../common/job-types/job-type';
import type { Job, JobSummary } from './api';

export type { ReviewerField, ReviewerView };

/**
 * How a job of this type is reviewed (its definition's `reviewer`), or undefined for a type this page was built
 * without: an API newer than the page, which the page says instead of showing it as something else.
 */
export function reviewerViewOf(type: string | undefined): ReviewerView | undefined {
  return type === undefined ? undefined : reviewerViews[type];
}

/** The type's title for the queue and the job's header; an unknown type by its own name. */
export function typeTitleOf(type: string | undefined): string {
  return reviewerViewOf(type)?.title ?? type ?? 'Unknown type';
}

/**
 * What a reviewer calls a job: its file's name, else the name the API gave it from its input (an order's id), else
 * that name read from the input here (a job submitted before the API named jobs), else the Idempotency-Key its
 * client submitted it with (the last part of the job id).
 */
export function jobNameOf(job: Pick<Job, 'jobId' | 'type' | 'fileName' | 'name' | 'input'> | JobSummary): string {
  const view = reviewerViewOf(job.type);
  const fromInput = view && 'input' in job ? nameFromInput(view, job.input) : undefined;
  return job.fileName ?? job.name ?? fromInput ?? (job.jobId.split(':').slice(2).join(':') || job.jobId);
}
