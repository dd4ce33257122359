import reviewerViews from 'virtual:reviewer-views';
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
 * What a reviewer calls a job: its file's name, else the value its type names it by (an order's id), else the
 * Idempotency-Key its client submitted it with (the last part of the job id).
 */
export function jobNameOf(job: Pick<Job, 'jobId' | 'type' | 'fileName' | 'input'> | JobSummary): string {
  if (job.fileName) return job.fileName;
  const namedBy = reviewerViewOf(job.type)?.namedBy;
  if (namedBy && 'input' in job) {
    const name = valueAt(job.input, namedBy);
    if (typeof name === 'string' || typeof name === 'number') return String(name);
  }
  return job.jobId.split(':').slice(2).join(':') || job.jobId;
}

/** The value at a dot-separated path (`customer.accountAgeDays`), or undefined where the path leads nowhere. */
export function valueAt(source: unknown, path: string): unknown {
  let value: unknown = source;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
