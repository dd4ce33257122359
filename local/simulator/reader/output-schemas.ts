import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import classificationSchema from '../../../common/schemas/classification.schema.json';
import extractionSchema from '../../../common/schemas/invoice-extraction.schema.json';

/**
 * The schemas the reader's tool answers must satisfy — the same files Slowlane validates model output
 * against — compiled once, so tests can hold every answer (and every deliberately malformed one) to them.
 */
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date']);

const validateExtraction = ajv.compile(extractionSchema);
const validateClassification = ajv.compile(classificationSchema);

/** Schema errors as "/invoice/totalAmount must be number,null"; empty when valid. */
export function extractionSchemaErrors(value: unknown): string[] {
  return validateExtraction(value)
    ? []
    : (validateExtraction.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

export function classificationSchemaErrors(value: unknown): string[] {
  return validateClassification(value)
    ? []
    : (validateClassification.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
