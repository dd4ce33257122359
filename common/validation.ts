import type { Static, TSchema } from '@sinclair/typebox';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type addFormats from 'ajv-formats';
import type { FormatName } from 'ajv-formats';
import chunkSummarySchema from './schemas/chunk-summary.schema.json';
import classificationSchema from './schemas/classification.schema.json';
import documentSummarySchema from './schemas/document-summary.schema.json';
import extractionSchema from './schemas/invoice-extraction.schema.json';
import pageTranscriptionSchema from './schemas/page-transcription.schema.json';
import type { Classification, InvoiceExtraction } from './invoice';
import { Invoice } from './job-types/invoice/invoice';
import { formatErrors } from './schema-errors';

/**
 * One ajv instance for the schemas in ./schemas and the job types' schemas. It is workflow-safe (pure computation),
 * so the review Update's validator in the workflow and the activities check against the very same files.
 *
 * Nothing is compiled, nor is ajv even loaded, when this module loads: the workflow sandbox evaluates the bundle's
 * modules afresh for every workflow run, so a compile at import would cost every job (~90 ms of CPU for these
 * schemas) and ajv's own ~200 modules a few more, whether or not the job validates anything in its workflow (only
 * the review Update's validator does). The instance and each validator are made on first use and kept.
 */
let sharedAjv: Ajv | undefined;

/** The formats the schemas use; the reviewer page's ahead-of-time validators know the same ones. */
export const SCHEMA_FORMATS: FormatName[] = ['date', 'date-time'];

function ajv(): Ajv {
  sharedAjv ??= newAjv(SCHEMA_FORMATS);
  return sharedAjv;
}

/** A strict ajv with these formats, ajv and ajv-formats loaded now (in the workflow bundle: on first use). */
export function newAjv(formats: FormatName[]): Ajv {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not with this module (above) */
  const { default: AjvClass } = require('ajv') as { default: typeof Ajv };
  const { default: withFormats } = require('ajv-formats') as { default: typeof addFormats };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const instance = new AjvClass({ allErrors: true, strict: true });
  withFormats(instance, formats);
  return instance;
}

/** A validator for `schema`, compiled by `instance` the first time it is called and kept from then on. */
export function compileOnFirstUse<T>(schema: object, instance: () => Ajv = ajv): (value: unknown) => ValidationResult<T> {
  let validate: ValidateFunction<T> | undefined;
  return (value) => check((validate ??= instance().compile<T>(schema)), value);
}

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

/** The invoice as posted, by the same compiled validator as its reviewer's `editable` schema (one object). */
export const validateInvoice = (value: unknown): ValidationResult<Invoice> => validateAgainst(Invoice, value);
export const validateExtraction = compileOnFirstUse<InvoiceExtraction>(extractionSchema);
export const validateClassification = compileOnFirstUse<Classification>(classificationSchema);

/** Each job type's schemas (TypeBox objects) compiled once, on first use, by the same ajv. */
const compiledTypeSchemas = new WeakMap<TSchema, ValidateFunction>();

/** Checks a value against a job type's schema (its input, proposal or result): the API and the activities use this. */
export function validateAgainst<S extends TSchema>(schema: S, value: unknown): ValidationResult<Static<S>> {
  let validate = compiledTypeSchemas.get(schema);
  if (!validate) {
    validate = ajv().compile(schema);
    compiledTypeSchemas.set(schema, validate);
  }
  return check(validate as ValidateFunction<Static<S>>, value);
}

export const validateChunkSummary = compileOnFirstUse<ChunkSummary>(chunkSummarySchema);
export const validatePageTranscription = compileOnFirstUse<PageTranscription>(pageTranscriptionSchema);
export const validateDocumentSummary = compileOnFirstUse<DocumentSummary>(documentSummarySchema);

export const schemas = {
  extraction: extractionSchema,
  classification: classificationSchema,
  chunkSummary: chunkSummarySchema,
  documentSummary: documentSummarySchema,
  pageTranscription: pageTranscriptionSchema,
};
