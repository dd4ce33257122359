/** Generated at bundle time by reviewer/build.ts from the invoice schema (ajv standalone). */
declare module 'virtual:invoice-validator' {
  import type { SchemaError } from '../../common/schema-errors';

  interface InvoiceValidator {
    (data: unknown): boolean;
    errors?: SchemaError[] | null;
  }
  const validate: InvoiceValidator;
  export default validate;
}

/** Generated at bundle time by reviewer/build.ts from the job-type registry: each type's `reviewer` view, by name. */
declare module 'virtual:reviewer-views' {
  import type { ReviewerView } from '../../common/job-types/job-type';

  const views: Readonly<Partial<Record<string, ReviewerView>>>;
  export default views;
}
