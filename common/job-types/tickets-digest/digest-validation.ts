import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { formatErrors } from '../../schema-errors';
import type { ValidationResult } from '../../validation';
import { DigestNarrative, TicketBatchSummary, TicketsDigest } from './digest';

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date-time']);

function checker<T>(validate: ValidateFunction<T>) {
  return (value: unknown): ValidationResult<T> =>
    validate(value) ? { ok: true, value } : { ok: false, errors: formatErrors(validate.errors ?? []) };
}

export const validateTicketBatchSummary = checker(ajv.compile<TicketBatchSummary>(TicketBatchSummary));
export const validateDigestNarrative = checker(ajv.compile<DigestNarrative>(DigestNarrative));
export const validateTicketsDigest = checker(ajv.compile<TicketsDigest>(TicketsDigest));
