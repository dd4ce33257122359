import type { Static, TSchema } from '@sinclair/typebox';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import chunkSummarySchema from './schemas/chunk-summary.schema.json';
import classificationSchema from './schemas/classification.schema.json';
import documentSummarySchema from './schemas/document-summary.schema.json';
import extractionSchema from './schemas/invoice-extraction.schema.json';
import invoiceSchema from './schemas/invoice.schema.json';
import pageTranscriptionSchema from './schemas/page-transcription.schema.json';
import type { Classification, Invoice, InvoiceExtraction } from './invoice';
import { formatErrors } from './schema-errors';

/**
 * One ajv instance for the schemas in ./schemas. It is workflow-safe (pure computation), so the review
 * Update's validator in the workflow and the activities check against the very same files.
 */
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date', 'date-time']);

const compiled = {
  invoice: ajv.compile<Invoice>(invoiceSchema),
  extraction: ajv.compile<InvoiceExtraction>(extractionSchema),
  classification: ajv.compile<Classification>(classificationSchema),
  chunkSummary: ajv.compile<ChunkSummary>(chunkSummarySchema),
  documentSummary: ajv.compile<DocumentSummary>(documentSummarySchema),
  pageTranscription: ajv.compile<PageTranscription>(pageTranscriptionSchema),
};

/** What the summarize_chunk tool returns (common/schemas/chunk-summary.schema.json). */
export interface ChunkSummary {
  summary: string;
  keyTerms: string[];
}

/** What the transcribe_page tool returns for a scanned page (common/schemas/page-transcription.schema.json). */
export interface PageTranscription extends ChunkSummary {
  text: string;
}

/** What the summarize_document tool returns (common/schemas/document-summary.schema.json). */
export interface DocumentSummary {
  title: string;
  summary: string;
  keyTopics: string[];
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

function check<T>(validate: ValidateFunction<T>, value: unknown): ValidationResult<T> {
  if (validate(value)) return { ok: true, value };
  return { ok: false, errors: formatErrors(validate.errors ?? []) };
}

export const validateInvoice = (value: unknown): ValidationResult<Invoice> => check(compiled.invoice, value);
export const validateExtraction = (value: unknown): ValidationResult<InvoiceExtraction> =>
  check(compiled.extraction, value);
export const validateClassification = (value: unknown): ValidationResult<Classification> =>
  check(compiled.classification, value);

/** Each job type's schemas (TypeBox objects) compiled once, on first use, by the same ajv. */
const compiledTypeSchemas = new WeakMap<TSchema, ValidateFunction>();

/** Checks a value against a job type's schema (its input, proposal or result): the API and the activities use this. */
export function validateAgainst<S extends TSchema>(schema: S, value: unknown): ValidationResult<Static<S>> {
  let validate = compiledTypeSchemas.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiledTypeSchemas.set(schema, validate);
  }
  return check(validate as ValidateFunction<Static<S>>, value);
}


export const validateChunkSummary = (value: unknown): ValidationResult<ChunkSummary> => check(compiled.chunkSummary, value);
export const validatePageTranscription = (value: unknown): ValidationResult<PageTranscription> =>
  check(compiled.pageTranscription, value);
export const validateDocumentSummary = (value: unknown): ValidationResult<DocumentSummary> =>
  check(compiled.documentSummary, value);

export const schemas = {
  invoice: invoiceSchema,
  extraction: extractionSchema,
  classification: classificationSchema,
  chunkSummary: chunkSummarySchema,
  documentSummary: documentSummarySchema,
  pageTranscription: pageTranscriptionSchema,
};
