import { validateInvoice } from '../common/validation';

export interface ValidateReviewFieldsInput {
  fields: unknown;
}

/** Empty when the fields pass. */
export interface ValidateReviewFieldsResult {
  errors: string[];
}

/**
 * A reviewer's fields from the `reviewed` signal, checked against the invoice schema as this worker has it. The
 * workflow runs it as a local activity: its answer is recorded in history, so a later edit of the schema cannot
 * change the decision an old job replays (workflow code that validated inline would).
 */
export async function validateReviewFields({ fields }: ValidateReviewFieldsInput): Promise<ValidateReviewFieldsResult> {
  const checked = validateInvoice(fields);
  return { errors: checked.ok ? [] : checked.errors };
}
