import { type Static, Type } from '@sinclair/typebox';
import { InvoiceExtraction } from './invoice';
import { JobInput, JobProposal, JobResult } from './job-types';
import { BudgetWait, CurrentAttempt, DeadLetter, JobError, JobProgress, Links, ReviewDecision, StepAttempts, Usage } from './job-parts';
import { closed, dateTime, ref } from './schema-kit';
import { JobStatus, JobStep, JobType, Priority } from './vocabulary';

/** What `GET /jobs/:id` answers (and a review, with the job as it is after the decision). */
export const Job = closed({
  jobId: Type.String({ description: '`<type>:<tenant>:<Idempotency-Key>`; also the Temporal workflow id.' }),
  type: ref('JobType', JobType),
  status: ref('JobStatus', JobStatus),
  step: Type.Optional(ref('JobStep', JobStep)),
  priority: Type.Optional(ref('Priority', Priority)),
  fileName: Type.Optional(Type.String()),
  name: Type.Optional(Type.String({ description: 'What a JSON job is called: the input’s value its type names it by (an order’s id). File jobs go by `fileName`.' })),
  scheduleId: Type.Optional(Type.String({ description: 'The schedule that started this run (`POST /schedules`), when one did.' })),
  submittedAt: Type.Optional(dateTime()),
  updatedAt: Type.Optional(dateTime()),
  closedAt: Type.Optional(dateTime()),
  attempts: Type.Optional(StepAttempts),
  /** From the server's pending activity, so it is known while no worker answers. */
  currentAttempt: Type.Optional(CurrentAttempt),
  documentType: Type.Optional(Type.String()),
  confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'The weakest required field’s confidence.' })),
  extraction: Type.Optional(ref('InvoiceExtraction', InvoiceExtraction)),
  validationErrors: Type.Optional(Type.Array(Type.String())),
  rawModelOutput: Type.Optional(Type.String({ description: 'The model’s answer when it failed the schema (truncated).' })),
  reviewReason: Type.Optional(
    Type.String({ description: 'Why a person reviews when no field or schema says it: a call heard poorly (“transcription confidence 0.41 below 0.60”).' }),
  ),
  reviewDeadline: Type.Optional(dateTime()),
  review: Type.Optional(ref('ReviewDecision', ReviewDecision)),
  input: Type.Optional(ref('JobInput', JobInput)),
  proposal: Type.Optional(ref('JobProposal', JobProposal)),
  result: Type.Optional(ref('JobResult', JobResult)),
  error: Type.Optional(ref('JobError', JobError)),
  deadLetter: Type.Optional(ref('DeadLetter', DeadLetter)),
  budgetWait: Type.Optional(ref('BudgetWait', BudgetWait)),
  usage: Type.Optional(ref('Usage', Usage)),
  progress: Type.Optional(ref('JobProgress', JobProgress)),
  detailed: Type.Boolean({ description: 'False when no worker answered: only the server-side status is known.' }),
  links: ref('Links', Links),
});
export type Job = Static<typeof Job>;

