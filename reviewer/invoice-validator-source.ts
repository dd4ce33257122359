import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone';
import { Invoice } from '../common/job-types/invoice/invoice';

/**
 * The invoice schema compiled ahead of time into plain JavaScript (ajv standalone), with the same options as the
 * server's validator (common/validation.ts). The page gets a validator that needs no `eval`, so its
 * Content-Security-Policy can forbid it, and it checks exactly what the API and the workflow check.
 */
export function invoiceValidatorSource(): string {
  const ajv = new Ajv({ allErrors: true, strict: true, code: { source: true, esm: true } });
  addFormats(ajv, ['date']);
  return standaloneCode(ajv, ajv.compile(Invoice));
}
