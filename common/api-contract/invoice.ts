import { Type } from '@sinclair/typebox';
import type { InvoiceExtraction as Extraction } from '../invoice';
import { FieldCitations } from '../job-types/invoice/field-citations';
import extractionSchema from '../schemas/invoice-extraction.schema.json';

/**
 * The model-output contract (common/schemas/invoice-extraction.schema.json) as an API body. The file is a draft-07
 * document of its own, with its own `$schema` and `$id`; inside the OpenAPI document it is a plain schema object.
 */
function embedded(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** The model's answer, and the citations the worker adds beside it (not part of what the model is asked to write). */
function withCitations(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown>;
  return { ...schema, properties: { ...properties, citations: FieldCitations } };
}

export const InvoiceExtraction = Type.Unsafe<Extraction>(withCitations(embedded(extractionSchema)));
