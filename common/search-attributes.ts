import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes: the job list, the reviewer queue and the Web UI all filter on these.
 * SQLite visibility (the dev server) allows at most 10 Keyword attributes; keep the count low.
 */
export const TenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
export const JobTypeKey = defineSearchAttributeKey('JobType', SearchAttributeType.KEYWORD);
export const JobStatusKey = defineSearchAttributeKey('JobStatus', SearchAttributeType.KEYWORD);
export const JobStepKey = defineSearchAttributeKey('JobStep', SearchAttributeType.KEYWORD);
export const PriorityKey = defineSearchAttributeKey('Priority', SearchAttributeType.KEYWORD);
export const ErrorTypeKey = defineSearchAttributeKey('ErrorType', SearchAttributeType.KEYWORD);
export const NeedsReviewKey = defineSearchAttributeKey('NeedsReview', SearchAttributeType.BOOL);
export const ReviewDeadlineKey = defineSearchAttributeKey('ReviewDeadline', SearchAttributeType.DATETIME);
/** When the job entered its current status and step: how long a dead letter has been parked, or a step running. */
export const StatusSinceKey = defineSearchAttributeKey('StatusSince', SearchAttributeType.DATETIME);

export const ALL_SEARCH_ATTRIBUTE_KEYS = [
  TenantIdKey,
  JobTypeKey,
  JobStatusKey,
  JobStepKey,
  PriorityKey,
  ErrorTypeKey,
  NeedsReviewKey,
  ReviewDeadlineKey,
  StatusSinceKey,
];
