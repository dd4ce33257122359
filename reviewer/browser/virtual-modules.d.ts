/** Generated at bundle time by reviewer/build.ts: each type's `reviewer.editable` schema compiled (ajv standalone). */
declare module 'virtual:editable-validators' {
  import type { SchemaError } from '../../common/schema-errors';

  export interface EditableValidator {
    (data: unknown): boolean;
    errors?: SchemaError[] | null;
  }
  const validators: Readonly<Partial<Record<string, EditableValidator>>>;
  export default validators;
}

/** Generated at bundle time by reviewer/build.ts from the job-type registry: each type's `reviewer` view, by name. */
declare module 'virtual:reviewer-views' {
  import type { ReviewerView } from '../../common/job-types/job-type';

  const views: Readonly<Partial<Record<string, ReviewerView>>>;
  export default views;
}
