import { Type } from '@sinclair/typebox';
import type { Invoice as InvoiceFields, InvoiceExtraction as Extraction } from '../invoice';
import extractionSchema from '../schemas/invoice-extraction.schema.json';
import invoiceSchema from '../schemas/invoice.schema.json';

/**
 * The model-output contract (common/schemas/*.json) as API bodies. The files are draft-07 documents of their own,
 * with their own `$schema` and `$id`; inside the OpenAPI document they are plain schema objects.
 */
function embedded(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

export const Invoice = Type.Unsafe<InvoiceFields>(embedded(invoiceSchema));
export const InvoiceExtraction = Type.Unsafe<Extraction>(embedded(extractionSchema));
