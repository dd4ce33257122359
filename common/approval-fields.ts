import type { ReviewerView } from './job-types/job-type';
import { validateAgainst } from './validation';

/**
 * What is wrong with an approval's `fields` for a type's reviewer view: they must match its editable result, or be
 * absent when it has none. Workflow-safe: the API, the review Update's validator and the signal's check share it.
 */
export function approvalFieldsErrors(view: ReviewerView, fields: unknown): string[] {
  if (view.editable === undefined) return fields === undefined ? [] : ['/fields: this job type is approved as it is; send no fields'];
  const checked = validateAgainst(view.editable.schema, fields);
  return checked.ok ? [] : checked.errors;
}
