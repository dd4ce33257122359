import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import classificationSchema from './schemas/classification.schema.json';
import extractionSchema from './schemas/invoice-extraction.schema.json';
import invoiceSchema from './schemas/invoice.schema.json';
import type { Classification, Invoice, InvoiceExtraction } from './invoice';

/**
 * One ajv instance for the schemas in ./schemas. It is workflow-safe (pure computation), so the review
 * Update's validator in the workflow and the activities check against the very same files.
 */
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date']);

const compiled = {
  invoice: ajv.compile<Invoice>(invoiceSchema),
  extraction: ajv.compile<InvoiceExtraction>(extractionSchema),
  classification: ajv.compile<Classification>(classificationSchema),
};

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

function check<T>(validate: ValidateFunction<T>, value: unknown): ValidationResult<T> {
  if (validate(value)) return { ok: true, value };
  return { ok: false, errors: formatErrors(validate.errors ?? []) };
}

/** "/totalAmount must be number" — a path a person can find in the form, and what is wrong with it. */
export function formatErrors(errors: ErrorObject[]): string[] {
  return errors.map((error) => {
    const path = error.instancePath === '' ? '(root)' : error.instancePath;
    if (error.keyword === 'additionalProperties') {
      return `${path} has an unknown property "${String(error.params.additionalProperty)}"`;
    }
    if (error.keyword === 'required') return `${path} is missing "${String(error.params.missingProperty)}"`;
    return `${path} ${error.message ?? 'is invalid'}`;
  });
}

export const validateInvoice = (value: unknown): ValidationResult<Invoice> => check(compiled.invoice, value);
export const validateExtraction = (value: unknown): ValidationResult<InvoiceExtraction> =>
  check(compiled.extraction, value);
export const validateClassification = (value: unknown): ValidationResult<Classification> =>
  check(compiled.classification, value);

export const schemas = { invoice: invoiceSchema, extraction: extractionSchema, classification: classificationSchema };
