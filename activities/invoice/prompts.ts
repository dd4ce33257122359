import type { ToolSpec } from '../../gateway/model-call';
import { schemas } from '../../common/validation';
import { toolSchema } from '../tool-schema';

export const CLASSIFY_SYSTEM =
  'You sort business documents for an accounts-payable team. Decide what kind of document the text is. ' +
  'Answer only through the classify_document tool.';
export const CLASSIFY_INSTRUCTION = 'Classify the document above.';
export const CLASSIFY_TOOL: ToolSpec = {
  name: 'classify_document',
  description: 'Record what kind of business document this is, and how sure you are (0 to 1).',
  inputSchema: toolSchema(schemas.classification),
};
/** Classification needs the head of a document, not all of it; this caps its cost on long PDFs. */
export const CLASSIFY_MAX_CHARACTERS = 8_000;

export const EXTRACT_SYSTEM =
  'You read invoices for an accounts-payable team. Copy values exactly as printed; write dates as YYYY-MM-DD ' +
  'and currencies as ISO 4217 codes. When a field is not shown, use null with confidence 0. Confidence is how ' +
  'sure you are that the value is right (0 to 1): lower it when the document is ambiguous. ' +
  'Answer only through the record_invoice tool.';
export const EXTRACT_INSTRUCTION = 'Extract the invoice fields from the document above.';
export const EXTRACT_TOOL: ToolSpec = {
  name: 'record_invoice',
  description: 'Record the fields of the invoice and a confidence per field.',
  inputSchema: toolSchema(schemas.extraction),
};
export const EXTRACT_MAX_TOKENS = 4_096;

/**
 * The citations call (cite-invoice-fields.ts). Its answer is prose, one line per field: the provider
 * attaches citations to text, never to a tool's input or to a JSON answer constrained by `output_config`.
 */
export const CITE_SYSTEM =
  'You show where an invoice prints each value. For every field you are given, write the field name, a colon, and ' +
  'then quote the passage of the document that shows the value, always with a citation. Write nothing else.';
export const CITE_INSTRUCTION =
  'These values were read from the document above. Write one line per field as "<field>: " followed by the cited ' +
  'passage that shows its value; write "<field>: not shown" when no passage shows it. Always use citations.';
/** A line per field, each a short quote: the cited text itself is not billed as output. */
export const CITE_MAX_TOKENS = 1_024;
