/** Generated at bundle time by reviewer/build.ts from common/schemas/invoice.schema.json (ajv standalone). */
declare module 'virtual:invoice-validator' {
  import type { SchemaError } from '../../common/schema-errors';

  interface InvoiceValidator {
    (data: unknown): boolean;
    errors?: SchemaError[] | null;
  }
  const validate: InvoiceValidator;
  export default validate;
}
