import { type Static, Type } from '@sinclair/typebox';
import { JOB_STEPS, type JobStep as Step } from '../job';
import { ReviewFields } from './job-types';
import { closed, count, dateTime, ref, stringEnum } from './schema-kit';
import { JobStep } from './vocabulary';

/** The parts of a job that the workflow records and the API shows as they are. */

export const REVIEW_OUTCOMES = ['approved', 'rejected'] as const;

export const Links = Type.Record(Type.String(), Type.String({ format: 'uri' }), {
  description: 'self, events (SSE), review, document, and temporal (the workflow in the Temporal Web UI).',
});
export type Links = Static<typeof Links>;

export const JobError = closed({
  type: Type.String(),
  message: Type.String(),
  step: Type.Optional(ref('JobStep', JobStep)),
  retryable: Type.Boolean(),
  attempts: Type.Optional(count()),
});
export type JobError = Static<typeof JobError>;

/** The calls that took one lane and what they cost there. */
export const LaneUsage = closed({ calls: count(), costUsd: Type.Number({ minimum: 0 }) });
export type LaneUsage = Static<typeof LaneUsage>;

export const Usage = closed({
  inputTokens: count(),
  outputTokens: count(),
  /** Absent in jobs recorded before prompt caching was counted. */
  cacheCreationInputTokens: Type.Optional(count()),
  cacheReadInputTokens: Type.Optional(count()),
  costUsd: Type.Number({ minimum: 0 }),
  calls: count(),
  /**
   * Which lane the calls took: `live` (the Messages API) or `batch` (the Message Batches API, half the price).
   * Absent in jobs recorded before the batch lane.
   */
  byLane: Type.Optional(closed({ live: Type.Optional(LaneUsage), batch: Type.Optional(LaneUsage) })),
});
export type Usage = Static<typeof Usage>;

/**
 * How far a job that fans out has got: a document's chunks, a digest's batches. A document also numbers it (`seq`)
 * and carries its pages and usage; it is the job's `progress` in `GET /jobs/:id` (from the memo when no worker
 * answers) and, when numbered, a `progress` event on the SSE stream.
 */
export const JobProgress = closed({
  seq: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Shares the numbering of the status events: the SSE id of the progress event; Last-Event-ID resumes after it.',
    }),
  ),
  unit: Type.Optional(Type.String({ description: 'What `done` and `total` count: `chunks` (document); a digest’s batches when absent.' })),
  done: count(),
  total: count(),
  failed: Type.Optional(count()),
  pagesRead: Type.Optional(count()),
  usage: Type.Optional(ref('Usage', Usage, { description: 'Tokens and cost so far, every provider together.' })),
});
export type JobProgress = Static<typeof JobProgress>;

export const ReviewDecision = closed({
  decision: stringEnum(REVIEW_OUTCOMES),
  reviewer: Type.String({
    description: 'Who decided, as their credential proved it: a reviewer’s id, the OIDC `sub`, or `api-key` for the tenant’s API key.',
  }),
  fields: Type.Optional(ref('ReviewFields', ReviewFields)),
  reason: Type.Optional(Type.String()),
  decidedAt: dateTime(),
});
export type ReviewDecision = Static<typeof ReviewDecision>;

export const DeadLetter = closed({
  error: ref('JobError', JobError),
  since: dateTime(),
  expiresAt: dateTime(),
  /** How many times an operator has sent this job back to its failed step. */
  retries: count(),
});
export type DeadLetter = Static<typeof DeadLetter>;

export const SPEND_WINDOWS = ['day', 'month'] as const;

export const BudgetWait = closed(
  {
    window: stringEnum(SPEND_WINDOWS, { description: 'The cap that is reached: the tenant’s UTC-day or UTC-month spend cap.' }),
    capUsd: Type.Number({ minimum: 0 }),
    spentUsd: Type.Number({ minimum: 0, description: 'Spent (and held by calls in flight) in the window when the step was refused.' }),
    since: dateTime(),
    resumesAt: Type.String({ format: 'date-time', description: 'When the window turns and the step runs again; sooner if an operator raises the cap.' }),
  },
  { description: 'Why a job in `budget_wait` waits: its next model call would pass its tenant’s spend cap.' },
);
export type BudgetWait = Static<typeof BudgetWait>;

/** Attempts so far per step; a step that never ran is absent. */
export const StepAttempts = Type.Unsafe<Partial<Record<Step, number>>>({
  type: 'object',
  propertyNames: { enum: JOB_STEPS },
  additionalProperties: { type: 'integer', minimum: 1 },
});

export const CurrentAttempt = closed(
  {
    step: ref('JobStep', JobStep),
    attempt: Type.Integer({ minimum: 1 }),
    lastFailure: Type.Optional(closed({ type: Type.Optional(Type.String()), message: Type.String() })),
    nextAttemptAt: Type.Optional(dateTime()),
  },
  { description: 'The step running now, from the server (known with no worker): which attempt, why the last one failed, when the next starts.' },
);
export type CurrentAttempt = Static<typeof CurrentAttempt>;
