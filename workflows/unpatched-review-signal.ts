import type { ValidateFunction } from 'ajv';
import type { Invoice } from '../common/invoice';
import { formatErrors } from '../common/schema-errors';
import { newAjv } from '../common/validation';
import recordedSchema from './unpatched-review-signal.invoice.schema.json';

let validate: ValidateFunction<Invoice> | undefined;

/**
 * How the `reviewed` signal was judged before `PATCHES.reviewSignalCheckedByLocalActivity` (workflows/review.ts): inline, against the
 * invoice schema as it was then, frozen in the JSON file beside this one. Only histories that took that path run
 * it, so editing the invoice's schema (common/job-types/invoice/invoice.ts) cannot change their replay. Delete both
 * files with the patch.
 */
export function errorsAsBeforeReviewSignalCheck(fields: unknown): string[] {
  if (!validate) {
    validate = newAjv(['date']).compile<Invoice>(recordedSchema);
  }
  return validate(fields) ? [] : formatErrors(validate.errors ?? []);
}
