import type { FileKind, Limit } from '../../common/job-types/job-type';
import { JOB_TYPE_DEFINITIONS } from '../../common/job-types/registry';
import { bodyRef, type Schema } from './refs';

export const json = (schema: Schema): Schema => ({ 'application/json': { schema } });

const problem = (description: string): Schema => ({ description, content: json(bodyRef('ErrorBody')) });

/** Error answers, each with the codes it carries. Every operation lists the ones it can give. */
export const errors = {
  400: problem('`invalid_request`: the request is malformed; `details.field` names the field when there is one (and `details.line` the first bad line of a digest’s tickets).'),
  401: problem('`unauthorized`: no or an unknown key; send `Authorization: Bearer <key>`.'),
  403: problem('`not_you`: the body names a reviewer or operator other than the one the credential proves; leave the field out, the signed-in identity is recorded (`details.field`).'),
  404: problem('`not_found`: no such job or schedule for this tenant (another tenant’s answers the same way), or no such route; on a list, a `pageToken` of the right shape it did not give out (`details.field`).'),
  409: problem(
    '`idempotency_key_reused` (same key, different file or input; `details.jobId`), `not_awaiting_review` (the job already moved on; `details.status`), `job_finished` (a cancel of a finished job; `details.status`) or `schedule_exists` (the tenant already has a schedule with that id; `details.scheduleId`).',
  ),
  413: problem(
    '`payload_too_large`: the file (or JSON body) is over the limit (a file: `MAX_UPLOAD_BYTES` unless its type says otherwise: ' +
      byteLimits() +
      '); `details.limitBytes` (or `details.limitLines` for a JSONL input with too many lines, `details.limitPixels` for an image wider or taller than the model reads: 8000 px). `too_many_pages`: the PDF (or form-feed-separated text) has more pages than its job type reads (' +
      pageLimits() +
      '); `details.pages`, `details.limitPages`. `too_long`: a recording longer than its job type takes (' +
      durationLimits() +
      ', read with ffprobe); `details.durationSeconds`, `details.limitSeconds`. The same shape for every type: a limit the API can check is checked before the job starts.',
  ),
  415: problem('`unsupported_media_type`: the uploaded bytes are none of the kinds the job type takes (PDF, PNG, JPEG or UTF-8 text for `invoice`; PDF or UTF-8 text for `document`; a WAV, MP3, M4A/AAC, OGG/Opus or FLAC recording ffprobe can read for `call.transcribe`), or a JSON body is not UTF-8 (or has an unknown Content-Encoding).'),
  429: {
    ...problem('`too_many_requests`: this tenant already has its limit of uploads (or event streams) in flight; `details.limit`.'),
    headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } },
  },
  431: problem('`request_header_fields_too_large`: the URL and headers together are over 16 KB.'),
  422: problem('`invalid_fields`: the fields do not match the result the job type’s reviewer edits (`ReviewFields`); `details.errors` lists each problem.'),
  500: problem('`internal`: a fault on our side; retrying with the same Idempotency-Key is safe.'),
  503: problem(
    '`temporal_unavailable` (the job service is unreachable; retry shortly), `reviewer_unavailable`, `audit_unavailable` (a decision or erasure could not be recorded in the audit trail, so it was not taken; send it again), or `speech_provider_unavailable` (an erasure could not delete a call’s transcript at the speech provider; send it again).',
  ),
} as const;

export type ErrorStatus = keyof typeof errors;

/** The answers an operation can give: its successes plus the listed error statuses (500 always). */
export function responses(success: Record<string, Schema>, ...statuses: ErrorStatus[]): Record<string, Schema> {
  const all: Record<string, Schema> = { ...success };
  for (const status of [...statuses, 500] as ErrorStatus[]) all[String(status)] = errors[status];
  return all;
}

export const jobIdParameter: Schema = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The job id, e.g. `invoice:demo:my-key` (URL-encode the colons if your client needs it).',
  schema: { type: 'string' },
};

export const retryAfterHeader: Schema = {
  description: 'Seconds until it is worth asking again; sent while the job is not finished: 2 while it is queued or processing, 60 while it waits for a reviewer or an operator.',
  schema: { type: 'integer', minimum: 1 },
};

/** Each type's page limits as its definition declares them (FileKind.maxPages), so the document says what is enforced. */
function pageLimits(): string {
  const describe = (limit: Limit) => (typeof limit === 'number' ? String(limit) : limit.setting);
  return JOB_TYPE_DEFINITIONS.flatMap((definition) => {
    if (definition.input.kind !== 'file') return [];
    const limited = definition.input.accepts.flatMap((kind: FileKind) => (kind.maxPages === undefined ? [] : [`${kind.contentType} ${describe(kind.maxPages)}`]));
    return limited.length === 0 ? [] : [`\`${definition.name}\`: ${limited.join(', ')}`];
  }).join('; ');
}

/** Each type's own byte limits as its definition declares them (FileKind.maxBytes); the rest take MAX_UPLOAD_BYTES. */
function byteLimits(): string {
  const describe = (limit: Limit) => (typeof limit === 'number' ? `${limit} bytes` : limit.setting);
  return JOB_TYPE_DEFINITIONS.flatMap((definition) => {
    if (definition.input.kind !== 'file') return [];
    const limits = new Set(definition.input.accepts.flatMap((kind: FileKind) => (kind.maxBytes === undefined ? [] : [`${kind.contentType} ${describe(kind.maxBytes)}`])));
    return limits.size === 0 ? [] : [`\`${definition.name}\`: ${[...limits].join(', ')}`];
  }).join('; ');
}

/** Each type's duration limits as its definition declares them (FileKind.maxDurationSeconds). */
function durationLimits(): string {
  const describe = (limit: Limit) => (typeof limit === 'number' ? `${limit} s` : limit.setting);
  return JOB_TYPE_DEFINITIONS.flatMap((definition) => {
    if (definition.input.kind !== 'file') return [];
    const limits = new Set(definition.input.accepts.flatMap((kind: FileKind) => (kind.maxDurationSeconds === undefined ? [] : [describe(kind.maxDurationSeconds)])));
    return limits.size === 0 ? [] : [`\`${definition.name}\`: ${[...limits].join(', ')}`];
  }).join('; ');
}
