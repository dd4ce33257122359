import type Ajv from 'ajv';
import { compileOnFirstUse, newAjv } from '../../validation';
import { DigestNarrative, TicketBatchSummary, TicketsDigest } from './digest';

/** Its own ajv (only `date-time` formats), made and compiled on first use like common/validation.ts's. */
let digestAjv: Ajv | undefined;
function ajv(): Ajv {
  digestAjv ??= newAjv(['date-time']);
  return digestAjv;
}

export const validateTicketBatchSummary = compileOnFirstUse<TicketBatchSummary>(TicketBatchSummary, ajv);
export const validateDigestNarrative = compileOnFirstUse<DigestNarrative>(DigestNarrative, ajv);
export const validateTicketsDigest = compileOnFirstUse<TicketsDigest>(TicketsDigest, ajv);
