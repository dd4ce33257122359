import { AbandonOutcome, AbandonRequest, DeadLetterList, GivenUpWebhook, GivenUpWebhookList, ParkedJob, ReplayOutcome, ReplayRequest, SpendCapRaised, WebhookRedelivery } from './admin';
import { AuditActionName, AuditActor, AuditList, AuditRecord } from './audit';
import { CallTranscript, CallTranscriptSegment } from './call-transcript';
import { ErrorBody } from './error-body';
import { JobErasure } from './erasure';
import { InvoiceExtraction } from './invoice';
import { Invoice } from '../job-types/invoice/invoice';
import { Job } from './job';
import { JobEvent, JobProgressEvent, JobStreamEnd, JobStreamEvent } from './job-event';
import { JobList, JobSummary } from './job-list';
import { SocketToken } from './job-socket';
import { FileJobType, JobInput, JobProposal, JobResult, jobTypeComponents, ReviewFields, SubmitJobRequest } from './job-types';
import { BudgetWait, DeadLetter, JobError, JobProgress, Links, ReviewDecision, Usage } from './job-parts';
import { Health, ReviewSession } from './meta';
import { PushMessage, PushSubscriptionList, PushSubscriptionRequest, PushSubscriptionView, VapidPublicKey } from './push';
import { ReviewApproval, ReviewRejection, ReviewRequest } from './review-request';
import { SchedulableJobType, Schedule, ScheduleList, ScheduleRequest, ScheduleStateRequest } from './schedule';
import { SubmitJobForm, Submission } from './submission';
import { JobStatus, JobStep, JobType, Priority } from './vocabulary';
import { WebhookEvent } from './webhook-event';

/**
 * Every body of the HTTP API by its name: the OpenAPI document's `components.schemas` is this object, and the
 * API's request validators are compiled from it. A `ref(name, …)` inside a body names one of these keys.
 */
const fixedComponents = {
  Invoice,
  InvoiceExtraction,
  JobStatus,
  JobStep,
  JobType,
  Priority,
  Links,
  ErrorBody,
  JobError,
  Usage,
  JobProgress,
  ReviewDecision,
  DeadLetter,
  BudgetWait,
  Job,
  SubmitJobForm,
  Submission,
  JobSummary,
  JobList,
  ReviewRequest,
  ReviewApproval,
  ReviewFields,
  ReviewRejection,
  JobEvent,
  JobProgressEvent,
  JobStreamEnd,
  JobStreamEvent,
  SocketToken,
  PushSubscriptionRequest,
  PushSubscription: PushSubscriptionView,
  PushSubscriptionList,
  VapidPublicKey,
  PushMessage,
  ReviewSession,
  Health,
  WebhookEvent,
  ParkedJob,
  DeadLetterList,
  ReplayRequest,
  ReplayOutcome,
  SpendCapRaised,
  GivenUpWebhook,
  GivenUpWebhookList,
  WebhookRedelivery,
  FileJobType,
  SubmitJobRequest,
  JobResult,
  JobInput,
  JobProposal,
  SchedulableJobType,
  ScheduleRequest,
  Schedule,
  ScheduleList,
  ScheduleStateRequest,
  JobErasure,
  CallTranscript,
  CallTranscriptSegment,
  AbandonRequest,
  AbandonOutcome,
  AuditActionName,
  AuditActor,
  AuditRecord,
  AuditList,
};

/**
 * The fixed bodies, then each job type's own (`<Type>Input`, `<Type>Result`, …; ./job-types.ts). The type names
 * the fixed ones only: a type's bodies are reached through JobResult, JobInput, JobProposal and SubmitJobRequest.
 */
export const apiComponents: typeof fixedComponents = { ...fixedComponents, ...jobTypeComponents };

export type ApiComponentName = keyof typeof fixedComponents;
