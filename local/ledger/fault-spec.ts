import { LedgerHttpError } from './ledger-http-error';

export const FAULT_KINDS = ['unavailable', 'commit_then_fail', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How `commit_then_fail` fails after the entry is durable: a 500 answer, or a dropped connection (no answer at all). */
export const COMMIT_FAILURE_MODES = ['http_500', 'connection_reset'] as const;
export type CommitFailureMode = (typeof COMMIT_FAILURE_MODES)[number];

/** What `POST /_ledger/faults` arms: the next `times` requests to `POST /entries` meet this fault. */
export interface FaultSpec {
  kind: FaultKind;
  times: number;
  /** `slow` only: how long the answer is held back after the entry is committed. */
  delayMs: number;
  /** `commit_then_fail` only. */
  failWith: CommitFailureMode;
}

const MAX_TIMES = 10_000;
const DEFAULT_SLOW_DELAY_MS = 2_000;
/** Longer than any activity timeout worth testing, short enough that a forgotten fault does not hang a run. */
const MAX_DELAY_MS = 300_000;

export function parseFaultSpec(body: unknown): FaultSpec {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidFault('send a JSON object { kind, times?, delayMs?, failWith? }');
  }
  const input = body as Record<string, unknown>;
  const unknownField = Object.keys(input).find((field) => !['kind', 'times', 'delayMs', 'failWith'].includes(field));
  if (unknownField !== undefined)
    throw invalidFault(`unknown field "${unknownField}"; allowed: kind, times, delayMs, failWith`);
  const kind = oneOf(input.kind, FAULT_KINDS, 'kind');
  if (kind === undefined) throw invalidFault(`kind is required, one of ${FAULT_KINDS.join(', ')}`);
  if (input.delayMs !== undefined && kind !== 'slow') throw invalidFault('delayMs applies only to kind "slow"');
  if (input.failWith !== undefined && kind !== 'commit_then_fail') {
    throw invalidFault('failWith applies only to kind "commit_then_fail"');
  }
  return {
    kind,
    times: integerIn(input.times, 'times', 1, MAX_TIMES) ?? 1,
    delayMs: integerIn(input.delayMs, 'delayMs', 0, MAX_DELAY_MS) ?? DEFAULT_SLOW_DELAY_MS,
    failWith: oneOf(input.failWith, COMMIT_FAILURE_MODES, 'failWith') ?? 'http_500',
  };
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T | undefined {
  if (value === undefined) return undefined;
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) throw invalidFault(`${field} must be one of ${allowed.join(', ')}`);
  return match;
}

function integerIn(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidFault(`${field} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function invalidFault(message: string): LedgerHttpError {
  return new LedgerHttpError({ status: 400, code: 'invalid_fault', message });
}
