import { isRecord, type Parsed } from './messages-request';

export const FAULT_KINDS = [
  'rate_limit',
  'overloaded',
  'server_error',
  'invalid_request',
  'spend_limit',
  'refusal',
  'malformed',
  'slow',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** For rate_limit/overloaded/spend_limit: the `retry-after` header to send. */
  retryAfterSeconds?: number;
  /** For slow (or any kind): extra latency before answering. */
  delayMs?: number;
}

export interface FaultMatch {
  tool?: string;
  /** Matched against the request's document text, so a test can target one job by a marker string. */
  textIncludes?: string;
  model?: string;
}

export interface FaultRuleInput {
  match: FaultMatch;
  fault: Fault;
  /** How many matching requests get the fault; null = until the rule is removed. */
  times: number | null;
}

function isFaultKind(value: unknown): value is FaultKind {
  return typeof value === 'string' && (FAULT_KINDS as readonly string[]).includes(value);
}

function nonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function parseFault(value: unknown): Parsed<Fault> {
  if (!isRecord(value)) return { ok: false, message: 'fault: Field required (an object with a kind)' };
  if (!isFaultKind(value.kind)) return { ok: false, message: `fault.kind must be one of ${FAULT_KINDS.join(', ')}` };
  const fault: Fault = { kind: value.kind };
  if (value.retryAfterSeconds !== undefined) {
    if (!nonNegativeInteger(value.retryAfterSeconds)) {
      return { ok: false, message: 'fault.retryAfterSeconds must be an integer >= 0' };
    }
    fault.retryAfterSeconds = value.retryAfterSeconds;
  }
  if (value.delayMs !== undefined) {
    if (!nonNegativeInteger(value.delayMs)) return { ok: false, message: 'fault.delayMs must be an integer >= 0' };
    fault.delayMs = value.delayMs;
  }
  return { ok: true, value: fault };
}

function parseMatch(value: unknown): Parsed<FaultMatch> {
  if (value === undefined) return { ok: true, value: {} };
  if (!isRecord(value)) return { ok: false, message: 'match must be an object' };
  const match: FaultMatch = {};
  for (const key of ['tool', 'textIncludes', 'model'] as const) {
    const field = value[key];
    if (field === undefined) continue;
    if (typeof field !== 'string' || field === '')
      return { ok: false, message: `match.${key} must be a non-empty string` };
    match[key] = field;
  }
  const unknown = Object.keys(value).filter((key) => !['tool', 'textIncludes', 'model'].includes(key));
  if (unknown.length > 0) return { ok: false, message: `match has unknown keys: ${unknown.join(', ')}` };
  return { ok: true, value: match };
}

/** Validates a `POST /_sim/faults` body. */
export function parseFaultRuleInput(body: unknown): Parsed<FaultRuleInput> {
  if (!isRecord(body)) return { ok: false, message: 'fault rule must be a JSON object' };
  const match = parseMatch(body.match);
  if (!match.ok) return match;
  const fault = parseFault(body.fault);
  if (!fault.ok) return fault;
  if (body.times !== undefined && body.times !== null && !(nonNegativeInteger(body.times) && body.times > 0)) {
    return { ok: false, message: 'times must be a positive integer (omit it for "until removed")' };
  }
  const times = typeof body.times === 'number' ? body.times : null;
  return { ok: true, value: { match: match.value, fault: fault.value, times } };
}

/** Parses the test-only header `x-sim-fault: <kind>[;retry-after=N][;delay-ms=N]`. */
export function parseFaultHeader(header: string): Parsed<Fault> {
  const [kind = '', ...parameters] = header.split(';').map((part) => part.trim());
  if (!isFaultKind(kind)) return { ok: false, message: `x-sim-fault: kind must be one of ${FAULT_KINDS.join(', ')}` };
  const fault: Fault = { kind };
  for (const parameter of parameters) {
    const [name, raw = ''] = parameter.split('=').map((part) => part.trim());
    const value = Number(raw);
    if (raw === '' || !nonNegativeInteger(value)) {
      return { ok: false, message: `x-sim-fault: ${name} needs an integer >= 0, got "${raw}"` };
    }
    if (name === 'retry-after') fault.retryAfterSeconds = value;
    else if (name === 'delay-ms') fault.delayMs = value;
    else return { ok: false, message: `x-sim-fault: unknown parameter "${name}" (retry-after, delay-ms)` };
  }
  return { ok: true, value: fault };
}
