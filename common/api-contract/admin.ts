import { type Static, Type } from '@sinclair/typebox';
import { JobError } from './job-parts';
import { closed, dateTime, ref, stringEnum } from './schema-kit';
import { JobStep } from './vocabulary';

/** The operators' bodies under /admin (docs/operations.md). */

export const ParkedJob = closed({
  jobId: Type.String(),
  runId: Type.String(),
  tenantId: Type.Optional(Type.String()),
  priority: Type.Optional(Type.String()),
  fileName: Type.Optional(Type.String()),
  step: Type.Optional(ref('JobStep', JobStep)),
  errorType: Type.Optional(Type.String()),
  error: Type.Optional(ref('JobError', JobError)),
  parkedSince: Type.Optional(dateTime()),
  parkedSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
  startedAt: dateTime(),
});

export const DeadLetterList = closed({
  query: Type.String({ description: 'The visibility query that found them; paste it into the Temporal Web UI.' }),
  deadLetters: Type.Array(ref('ParkedJob', ParkedJob)),
  truncated: Type.Boolean({ description: 'True when more jobs matched than `limit`.' }),
});
export type DeadLetterList = Static<typeof DeadLetterList>;

export const ReplayRequest = closed({
  operator: Type.Optional(
    Type.String({ description: 'Leave it out: the operator recorded is the one signed in. When given it must be that id, else 403 `not_you`.' }),
  ),
  reason: Type.Optional(Type.String()),
  dryRun: Type.Optional(Type.Boolean()),
});
export type ReplayRequest = Static<typeof ReplayRequest>;

/** The outcomes that answer 200; a refusal or an unknown job answers as an error. */
export const REPLAYED_ACTIONS = ['retried', 'reset', 'would_retry', 'would_reset'] as const;

export const ReplayOutcome = closed({
  jobId: Type.String(),
  action: stringEnum(REPLAYED_ACTIONS),
  detail: Type.String({ description: 'What was done and why, in one line.' }),
  step: Type.Optional(Type.String({ description: 'The step that runs again.' })),
  runId: Type.Optional(Type.String({ description: 'After a reset: the run that continues the job.' })),
  resetEventId: Type.Optional(Type.Integer({ minimum: 1, description: 'After a reset: the WorkflowTaskCompleted event reset to.' })),
});
export type ReplayOutcome = Static<typeof ReplayOutcome>;

export const SpendCapRaised = closed({
  tenantId: Type.String(),
  woken: Type.Integer({ minimum: 0, description: 'Jobs in `budget_wait` that were told to run their step again.' }),
  query: Type.String({ description: 'The visibility query that found them; paste it into the Temporal Web UI.' }),
});
export type SpendCapRaised = Static<typeof SpendCapRaised>;

export const GivenUpWebhook = closed({
  deliveryId: Type.String({ description: 'The delivery workflow, `webhook:<jobId>:<eventId>`: what to redeliver.' }),
  runId: Type.String(),
  jobId: Type.Optional(Type.String()),
  eventId: Type.Optional(Type.String({ description: 'The `webhook-id` the receiver sees; redelivery sends the same one.' })),
  status: Type.String({ description: 'How the delivery closed: FAILED (410 Gone, a refused URL, a day of retries) or TIMED_OUT.' }),
  closedAt: Type.Optional(dateTime()),
});
export type GivenUpWebhook = Static<typeof GivenUpWebhook>;

export const GivenUpWebhookList = closed({
  query: Type.String({ description: 'The visibility query that found them; paste it into the Temporal Web UI.' }),
  deliveries: Type.Array(ref('GivenUpWebhook', GivenUpWebhook)),
  truncated: Type.Boolean({ description: 'True when more deliveries matched than `limit`.' }),
});
export type GivenUpWebhookList = Static<typeof GivenUpWebhookList>;

export const WebhookRedelivery = closed({
  deliveryId: Type.String(),
  action: stringEnum(['redelivered'] as const),
  detail: Type.String({ description: 'What was done, in one line.' }),
  runId: Type.Optional(Type.String({ description: 'The run that delivers the event again.' })),
});
export type WebhookRedelivery = Static<typeof WebhookRedelivery>;

export const AbandonRequest = closed({
  operator: Type.Optional(
    Type.String({ description: 'Leave it out: the operator recorded is the one signed in. When given it must be that id, else 403 `not_you`.' }),
  ),
  reason: Type.Optional(Type.String({ description: 'Kept in the job’s (encrypted) history, not in the audit trail.' })),
});
export type AbandonRequest = Static<typeof AbandonRequest>;

export const AbandonOutcome = closed({
  jobId: Type.String(),
  action: stringEnum(['abandoned'] as const),
  detail: Type.String({ description: 'What was done, in one line.' }),
});
export type AbandonOutcome = Static<typeof AbandonOutcome>;
