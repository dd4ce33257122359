import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { Invoice } from '../../common/job-types/invoice/invoice';
import type { EntryRequest } from './ledger-entry';
import { LedgerHttpError } from './ledger-http-error';

/** Printable ASCII without spaces or separators that would need escaping; `:` because Slowlane job ids use it. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:~-]{1,200}$/;

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);

const validateEntryRequestShape = ajv.compile<EntryRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['tenantId', 'jobId', 'invoice'],
  properties: {
    tenantId: { type: 'string', minLength: 1, maxLength: 200 },
    jobId: { type: 'string', minLength: 1, maxLength: 500 },
    invoice: Invoice,
  },
});

/** Enough problems to fix several at once, few enough to read. */
const MAX_REPORTED_PROBLEMS = 5;

export function parseIdempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined || header === '') {
    throw new LedgerHttpError({
      status: 400,
      code: 'missing_idempotency_key',
      message: 'send an Idempotency-Key header (1-200 characters of A-Z a-z 0-9 . _ : ~ -), unique per entry',
    });
  }
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new LedgerHttpError({
      status: 400,
      code: 'invalid_idempotency_key',
      message: 'the Idempotency-Key header must be 1-200 characters of A-Z a-z 0-9 . _ : ~ - (sent once)',
    });
  }
  return key;
}

export function parseEntryRequest(body: unknown): EntryRequest {
  if (body === undefined) {
    throw new LedgerHttpError({
      status: 400,
      code: 'invalid_body',
      message: 'send a JSON body { tenantId, jobId, invoice }',
    });
  }
  if (validateEntryRequestShape(body)) return body;
  const problems = describeProblems(validateEntryRequestShape.errors ?? []).slice(0, MAX_REPORTED_PROBLEMS);
  throw new LedgerHttpError({
    status: 400,
    code: 'invalid_body',
    message: `the body must be { tenantId, jobId, invoice } with a valid invoice: ${problems.join('; ')}`,
  });
}

/** One line per missing-fields group and per other problem, e.g. `invoice is missing issuer, currency`. */
function describeProblems(errors: readonly ErrorObject[]): string[] {
  const missingByPath = new Map<string, string[]>();
  const others: string[] = [];
  for (const error of errors) {
    const where = readablePath(error.instancePath);
    if (error.keyword === 'required') {
      const missing = missingByPath.get(where) ?? [];
      missing.push(String(error.params.missingProperty));
      missingByPath.set(where, missing);
    } else if (error.keyword === 'additionalProperties') {
      others.push(`${where} has unknown field ${String(error.params.additionalProperty)}`);
    } else {
      others.push(`${where} ${error.message ?? 'is invalid'}`);
    }
  }
  const missing = [...missingByPath].map(([where, fields]) => `${where} is missing ${fields.join(', ')}`);
  return [...missing, ...others];
}

/** `/invoice/lineItems/0/amount` → `invoice.lineItems[0].amount`; the root is called `body`. */
function readablePath(instancePath: string): string {
  const path = instancePath
    .split('/')
    .slice(1)
    .map((segment) =>
      /^\d+$/.test(segment) ? `[${segment}]` : `.${segment.replaceAll('~1', '/').replaceAll('~0', '~')}`,
    )
    .join('')
    .replace(/^\./, '');
  return path === '' ? 'body' : path;
}
