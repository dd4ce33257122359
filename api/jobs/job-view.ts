import type { Job } from '../../common/api-contract/job';
import type { JobState } from '../../common/job';

/** What the server alone knows of a job (search attributes, memo, close time): enough to answer with no worker. */
export type JobBase = Pick<
  Job,
  'jobId' | 'type' | 'status' | 'step' | 'priority' | 'fileName' | 'name' | 'scheduleId' | 'submittedAt' | 'closedAt' | 'error' | 'currentAttempt' | 'progress'
>;

/**
 * What a type's state may carry beyond JobState for the Job's own fields, and what an invoice's state held before
 * its result moved into `result` (a worker of an older build may still answer the query during a deploy).
 */
type ShownState = JobState & Partial<Pick<Job, 'documentType' | 'confidence' | 'extraction'>> & { fields?: unknown; ledgerEntryId?: string };

/** A type's result once it finished well. */
function resultOf(state: ShownState): Job['result'] {
  if (state.result !== undefined) return state.result;
  return state.fields && state.status === 'posted' ? ({ fields: state.fields, ledgerEntryId: state.ledgerEntryId } as Job['result']) : undefined;
}

/** The job as a client sees it: the server's part, and the workflow's when a worker answered. */
export function toJobView(base: JobBase, state: ShownState | undefined, links: Record<string, string>): Job {
  if (!state) return { ...base, detailed: false, links };
  return {
    ...base,
    status: state.status,
    step: state.step,
    updatedAt: state.updatedAt,
    attempts: state.attempts,
    documentType: state.documentType,
    confidence: state.confidence,
    extraction: state.extraction,
    validationErrors: state.validationErrors?.length ? state.validationErrors : undefined,
    rawModelOutput: state.rawModelOutput,
    reviewReason: state.reviewReason,
    reviewDeadline: state.reviewDeadline,
    review: state.review,
    input: state.input as Job['input'],
    proposal: state.proposal as Job['proposal'],
    result: resultOf(state),
    error: state.error,
    deadLetter: state.status === 'dead_letter' ? state.deadLetter : undefined,
    budgetWait: state.status === 'budget_wait' ? state.budgetWait : undefined,
    usage: state.usage,
    progress: state.progress ?? base.progress,
    detailed: true,
    links,
  };
}
