import { approvalFieldsErrors } from '../common/approval-fields';
import { jobTypeNamed } from '../common/job-types/registry';

export interface ValidateReviewFieldsInput {
  /** Absent when a worker of an older build asks: only invoices took fields then. */
  jobType?: string;
  fields: unknown;
}

/** Empty when the fields pass. */
export interface ValidateReviewFieldsResult {
  errors: string[];
}

/**
 * A reviewer's fields from the `reviewed` signal, checked against the job type's editable result as this worker has
 * it. The workflow runs it as a local activity: its answer is recorded in history, so a later edit of the schema
 * cannot change the decision an old job replays (workflow code that validated inline would).
 */
export async function validateReviewFields({ jobType = 'invoice', fields }: ValidateReviewFieldsInput): Promise<ValidateReviewFieldsResult> {
  const definition = jobTypeNamed(jobType);
  if (!definition) return { errors: [`unknown job type ${jobType}`] };
  return { errors: approvalFieldsErrors(definition.reviewer, fields) };
}
