import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  log,
  proxyActivities,
  setHandler,
  TimeoutFailure,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { InvoiceActivities } from '../activities';
import type { ExtractFieldsResult } from '../activities/contracts';
import type { Invoice } from '../common/invoice';
import type { InvoiceJobInput, JobError, JobState, JobStatus, JobStep, Usage } from '../common/job';
import {
  rejectedSignal,
  reviewedSignal,
  statusQuery,
  submitReviewUpdate,
  type SubmitReviewInput,
} from '../common/messages';
import {
  ErrorTypeKey,
  JobStatusKey,
  JobStepKey,
  NeedsReviewKey,
  ReviewDeadlineKey,
} from '../common/search-attributes';
import { validateInvoice } from '../common/validation';
import { extractTextOptions, ledgerOptions, modelCallOptions } from './activity-options';

const textSteps = proxyActivities<InvoiceActivities>(extractTextOptions);
const modelSteps = proxyActivities<InvoiceActivities>(modelCallOptions);
const ledgerSteps = proxyActivities<InvoiceActivities>(ledgerOptions);

/** A step failed for good (non-retryable, or out of retries); carries what the job reports. */
class StepFailed extends Error {
  constructor(readonly jobError: JobError) {
    super(jobError.message);
  }
}

/**
 * One invoice, from uploaded document to ledger entry (DESIGN.md §2). Deterministic orchestration only:
 * every read, model call and post is an activity; validation results arrive recorded in history.
 * Ends `posted`, `rejected` or `review_expired` (completed), or fails with the error in its details.
 */
export async function invoiceWorkflow(input: InvoiceJobInput): Promise<JobState> {
  const state: JobState = {
    jobId: input.jobId,
    tenantId: input.tenantId,
    status: 'queued',
    attempts: {},
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, calls: 0 },
    updatedAt: new Date().toISOString(),
  };
  let decision: SubmitReviewInput | undefined;

  const setStatus = (status: JobStatus, step?: JobStep): void => {
    state.status = status;
    state.step = step;
    state.updatedAt = new Date().toISOString();
    upsertSearchAttributes([
      { key: JobStatusKey, value: status },
      { key: JobStepKey, value: step ?? null },
    ]);
  };
  const addUsage = (usage: Usage): void => {
    state.usage = {
      inputTokens: state.usage.inputTokens + usage.inputTokens,
      outputTokens: state.usage.outputTokens + usage.outputTokens,
      costUsd: state.usage.costUsd + usage.costUsd,
      calls: state.usage.calls + usage.calls,
    };
  };
  const run = async <T extends { attempt: number }>(step: JobStep, activity: () => Promise<T>): Promise<T> => {
    setStatus('processing', step);
    try {
      const result = await activity();
      state.attempts[step] = result.attempt;
      return result;
    } catch (error) {
      throw new StepFailed(describeFailure(step, error));
    }
  };

  const awaitingReview = (): boolean => state.status === 'awaiting_review' && decision === undefined;
  setHandler(statusQuery, () => state);
  setHandler(
    submitReviewUpdate,
    (review) => {
      decision = review;
      return { accepted: true, status: review.decision === 'approve' ? 'processing' : 'rejected' };
    },
    {
      validator: (review) => {
        if (!awaitingReview()) {
          throw ApplicationFailure.create({
            type: 'NotAwaitingReview',
            message: `the job is ${state.status}${state.review ? ` (decided by ${state.review.reviewer})` : ''}, not awaiting review`,
            details: [{ status: state.status }],
          });
        }
        if (review.decision === 'approve') {
          const checked = validateInvoice(review.fields);
          if (!checked.ok) {
            throw ApplicationFailure.create({
              type: 'InvalidReviewFields',
              message: `the fields do not match the invoice schema: ${checked.errors.join('; ')}`,
              details: [{ errors: checked.errors }],
            });
          }
        } else if (review.reason.trim() === '') {
          throw ApplicationFailure.create({ type: 'InvalidReviewFields', message: 'a rejection needs a reason' });
        }
      },
    },
  );
  // Signals cannot answer the sender, so an invalid one is logged and the job keeps waiting for a valid decision.
  setHandler(reviewedSignal, ({ fields, reviewer }) => {
    if (!awaitingReview()) return log.warn('reviewed signal ignored: job is not awaiting review', { status: state.status });
    const checked = validateInvoice(fields);
    if (!checked.ok) return log.warn('reviewed signal ignored: invalid fields', { errors: checked.errors });
    decision = { decision: 'approve', fields: checked.value, reviewer };
  });
  setHandler(rejectedSignal, ({ reason, reviewer }) => {
    if (!awaitingReview()) return log.warn('rejected signal ignored: job is not awaiting review', { status: state.status });
    decision = { decision: 'reject', reason, reviewer };
  });

  const finish = async (status: 'posted' | 'rejected' | 'review_expired'): Promise<JobState> => {
    setStatus(status);
    await condition(allHandlersFinished);
    return state;
  };

  try {
    const text = await run('extractText', () => textSteps.extractText({ ...jobContext(input), document: input.document }));
    state.textKey = text.textKey;

    const classified = await run('classify', () =>
      modelSteps.classifyDocument({ ...jobContext(input), textKey: text.textKey }),
    );
    addUsage(classified.usage);
    state.documentType = classified.classification.documentType;
    if (classified.classification.documentType !== 'invoice') {
      state.error = {
        type: 'NotAnInvoice',
        message: `the document is not an invoice: ${classified.classification.documentType} (confidence ${classified.classification.confidence})`,
        step: 'classify',
        retryable: false,
      };
      return await finish('rejected');
    }

    const extracted = await extractWithRetries(input, text.textKey, run, addUsage);
    let fields: Invoice | undefined;
    if (extracted.outcome === 'valid') {
      state.extraction = extracted.extraction;
      state.confidence = extracted.confidence;
      state.validationErrors = extracted.invoiceErrors;
      if (extracted.invoice && extracted.confidence >= input.confidenceThreshold) fields = extracted.invoice;
    } else {
      state.rawModelOutput = extracted.rawOutput;
      state.validationErrors = extracted.errors;
    }

    if (!fields) {
      setStatus('awaiting_review', 'review');
      const deadline = new Date(Date.now() + input.reviewTimeoutMs);
      state.reviewDeadline = deadline.toISOString();
      upsertSearchAttributes([
        { key: NeedsReviewKey, value: true },
        { key: ReviewDeadlineKey, value: deadline },
      ]);
      const decided = await condition(() => decision !== undefined, input.reviewTimeoutMs);
      upsertSearchAttributes([{ key: NeedsReviewKey, value: false }]);
      if (!decided || !decision) return await finish('review_expired');
      const decidedAt = new Date().toISOString();
      if (decision.decision === 'reject') {
        state.review = { decision: 'rejected', reviewer: decision.reviewer, reason: decision.reason, decidedAt };
        return await finish('rejected');
      }
      state.review = { decision: 'approved', reviewer: decision.reviewer, fields: decision.fields, decidedAt };
      fields = decision.fields;
    }

    state.fields = fields;
    const posted = await run('postToLedger', () =>
      ledgerSteps.postInvoiceToLedger({ ...jobContext(input), invoice: fields }),
    );
    state.ledgerEntryId = posted.entryId;
    return await finish('posted');
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    state.error = error.jobError;
    setStatus('failed', error.jobError.step);
    upsertSearchAttributes([{ key: ErrorTypeKey, value: error.jobError.type }]);
    await condition(allHandlersFinished);
    throw ApplicationFailure.create({
      type: error.jobError.type,
      message: `${error.jobError.step ?? 'job'} failed: ${error.jobError.message}`,
      nonRetryable: true,
      details: [state],
    });
  }
}

function jobContext(input: InvoiceJobInput) {
  return { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority };
}

/** Asks again (bounded) when the model's answer does not match the schema; the last answer goes to review. */
async function extractWithRetries(
  input: InvoiceJobInput,
  textKey: string,
  run: <T extends { attempt: number }>(step: JobStep, activity: () => Promise<T>) => Promise<T>,
  addUsage: (usage: Usage) => void,
): Promise<ExtractFieldsResult> {
  let result: ExtractFieldsResult | undefined;
  for (let tryNumber = 1; tryNumber <= input.maxExtractionTries; tryNumber++) {
    result = await run('extractFields', () => modelSteps.extractInvoiceFields({ ...jobContext(input), textKey }));
    addUsage(result.usage);
    if (result.outcome === 'valid') return result;
    log.warn('model output failed the schema', { tryNumber, errors: result.errors.slice(0, 5) });
  }
  if (!result) throw new Error('maxExtractionTries must be at least 1');
  return result;
}

function describeFailure(step: JobStep, error: unknown): JobError {
  if (error instanceof ActivityFailure) {
    const cause = error.cause;
    if (cause instanceof ApplicationFailure) {
      return { type: cause.type ?? 'Error', message: cause.message, step, retryable: !cause.nonRetryable };
    }
    if (cause instanceof TimeoutFailure) {
      return { type: 'Timeout', message: `${step} timed out (${cause.timeoutType})`, step, retryable: true };
    }
    return { type: cause?.name ?? 'ActivityFailure', message: cause?.message ?? error.message, step, retryable: true };
  }
  throw error;
}
