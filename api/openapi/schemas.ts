import extractionSchema from '../../common/schemas/invoice-extraction.schema.json';
import invoiceSchema from '../../common/schemas/invoice.schema.json';
import { JOB_STATUSES } from '../../common/job';
import { PRIORITIES } from '../../common/task-queues';

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

const JOB_STEPS = ['extractText', 'classifyDocument', 'extractInvoiceFields', 'validate', 'review', 'postInvoiceToLedger'];

/** The JSON schema files are draft-07 documents of their own; inside OpenAPI 3.1 they are plain schema objects. */
function embedded(schema: Schema): Schema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

const object = (properties: Record<string, Schema>, required: string[], extra: Schema = {}): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
  ...extra,
});
const dateTime: Schema = { type: 'string', format: 'date-time' };
const count: Schema = { type: 'integer', minimum: 0 };

/** components.schemas: every body the API sends or accepts. Objects are closed so an unlisted field fails the tests. */
export const schemas: Record<string, Schema> = {
  Invoice: embedded(invoiceSchema),
  InvoiceExtraction: embedded(extractionSchema),
  JobStatus: {
    type: 'string',
    enum: [...JOB_STATUSES],
    description: 'queued → processing (with step) → awaiting_review → posted | rejected | review_expired | failed; dead_letter while a failed step waits for an operator.',
  },
  JobStep: { type: 'string', enum: JOB_STEPS },
  Priority: { type: 'string', enum: [...PRIORITIES] },
  Links: {
    type: 'object',
    description: 'self, events (SSE), review, document, and temporal (the workflow in the Temporal Web UI).',
    additionalProperties: { type: 'string', format: 'uri' },
  },
  Error: object(
    {
      error: object(
        {
          code: { type: 'string', description: 'Stable; branch on this, not on the message.', examples: ['invalid_request', 'not_found'] },
          message: { type: 'string', description: 'What went wrong and what to do about it.' },
          details: { type: 'object', description: 'Machine-readable specifics, e.g. `field`, `errors`, `jobId`, `status`.' },
        },
        ['code', 'message'],
      ),
    },
    ['error'],
  ),
  JobError: object(
    {
      type: { type: 'string' },
      message: { type: 'string' },
      step: ref('JobStep'),
      retryable: { type: 'boolean' },
      attempts: count,
    },
    ['type', 'message', 'retryable'],
  ),
  Usage: object(
    { inputTokens: count, outputTokens: count, costUsd: { type: 'number', minimum: 0 }, calls: count },
    ['inputTokens', 'outputTokens', 'costUsd', 'calls'],
  ),
  ReviewDecision: object(
    {
      decision: { type: 'string', enum: ['approved', 'rejected'] },
      reviewer: { type: 'string' },
      fields: ref('Invoice'),
      reason: { type: 'string' },
      decidedAt: dateTime,
    },
    ['decision', 'reviewer', 'decidedAt'],
  ),
  DeadLetter: object(
    { error: ref('JobError'), since: dateTime, expiresAt: dateTime, retries: count },
    ['error', 'since', 'expiresAt', 'retries'],
  ),
  Job: object(
    {
      jobId: { type: 'string', description: '`<type>:<tenant>:<Idempotency-Key>`; also the Temporal workflow id.' },
      type: { type: 'string', enum: ['invoice'] },
      status: ref('JobStatus'),
      step: ref('JobStep'),
      priority: ref('Priority'),
      fileName: { type: 'string' },
      submittedAt: dateTime,
      updatedAt: dateTime,
      closedAt: dateTime,
      attempts: { type: 'object', propertyNames: { enum: JOB_STEPS }, additionalProperties: { type: 'integer', minimum: 1 } },
      currentAttempt: object(
        {
          step: ref('JobStep'),
          attempt: { type: 'integer', minimum: 1 },
          lastFailure: object({ type: { type: 'string' }, message: { type: 'string' } }, ['message']),
          nextAttemptAt: dateTime,
        },
        ['step', 'attempt'],
        {
          description:
            'The step running now, from the server (known with no worker): which attempt, why the last one failed, when the next starts.',
        },
      ),
      documentType: { type: 'string' },
      confidence: { type: 'number', minimum: 0, maximum: 1, description: 'The weakest required field’s confidence.' },
      extraction: ref('InvoiceExtraction'),
      validationErrors: { type: 'array', items: { type: 'string' } },
      rawModelOutput: { type: 'string', description: 'The model’s answer when it failed the schema (truncated).' },
      reviewDeadline: dateTime,
      review: ref('ReviewDecision'),
      result: object({ fields: ref('Invoice'), ledgerEntryId: { type: 'string' } }, ['fields']),
      error: ref('JobError'),
      deadLetter: ref('DeadLetter'),
      usage: ref('Usage'),
      detailed: { type: 'boolean', description: 'False when no worker answered: only the server-side status is known.' },
      links: ref('Links'),
    },
    ['jobId', 'type', 'status', 'detailed', 'links'],
  ),
  Submission: object({ jobId: { type: 'string' }, status: ref('JobStatus'), links: ref('Links') }, ['jobId', 'status', 'links']),
  JobSummary: object(
    {
      jobId: { type: 'string' },
      status: ref('JobStatus'),
      step: ref('JobStep'),
      priority: ref('Priority'),
      fileName: { type: 'string' },
      submittedAt: dateTime,
      reviewDeadline: dateTime,
      links: ref('Links'),
    },
    ['jobId', 'status', 'links'],
  ),
  JobList: object(
    {
      jobs: { type: 'array', items: ref('JobSummary') },
      nextPageToken: { type: 'string', description: 'Pass as `pageToken` for the next page; absent on the last.' },
    },
    ['jobs'],
  ),
  ReviewRequest: {
    oneOf: [
      object(
        { decision: { const: 'approve' }, fields: ref('Invoice'), reviewer: { type: 'string', maxLength: 100 } },
        ['decision', 'fields'],
      ),
      object(
        { decision: { const: 'reject' }, reason: { type: 'string', minLength: 1, maxLength: 1000 }, reviewer: { type: 'string', maxLength: 100 } },
        ['decision', 'reason'],
      ),
    ],
  },
  JobEvent: object(
    {
      jobId: { type: 'string' },
      seq: { type: 'integer', minimum: 1, description: 'Also the SSE event id; send it back as Last-Event-ID to resume.' },
      status: ref('JobStatus'),
      step: ref('JobStep'),
      at: dateTime,
      error: ref('JobError'),
      detailed: { const: false, description: 'Present (false) on an event without an id: no worker answered, this is the server-side status.' },
    },
    ['jobId', 'status', 'at'],
  ),
  ReviewSession: object(
    {
      tenantId: { type: 'string' },
      role: { type: 'string', enum: ['api', 'reviewer'] },
      reviewer: { type: 'string', description: 'The default reviewer name recorded with decisions.' },
      confidenceThreshold: { type: 'number', minimum: 0, maximum: 1 },
    },
    ['tenantId', 'role', 'reviewer', 'confidenceThreshold'],
  ),
  Health: object({ ok: { type: 'boolean' } }, ['ok']),
  WebhookEvent: object(
    {
      type: { type: 'string', enum: ['job.awaiting_review', 'job.posted', 'job.rejected', 'job.review_expired', 'job.failed'] },
      timestamp: dateTime,
      data: object(
        {
          jobId: { type: 'string' },
          tenantId: { type: 'string' },
          status: ref('JobStatus'),
          error: ref('JobError'),
          ledgerEntryId: { type: 'string' },
        },
        ['jobId', 'tenantId', 'status'],
      ),
    },
    ['type', 'timestamp', 'data'],
  ),
};
