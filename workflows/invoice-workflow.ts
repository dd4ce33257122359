import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  log,
  patched,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { InvoiceActivities } from '../activities';
import type { ExtractInvoiceFieldsResult } from '../activities/contracts';
import { currentErrorType, TokenBudgetExhaustedError } from '../common/errors';
import type { Invoice } from '../common/invoice';
import type { InvoiceJobInput, JobState, JobStep } from '../common/job';
import type { JobFinished } from '../common/job-metrics';
import { statusQuery } from '../common/messages';
import { extractTextOptions, ledgerOptions, modelCallOptions } from './activity-options';
import { activitySummaries } from './activity-summaries';
import { DeadLetters, type StepFailure } from './dead-letters';
import { jobMetrics } from './job-metrics';
import { JobTracker } from './job-tracker';
import { notifyClient } from './notifications';
import { describeFailure, failureDetailsOf } from './step-failures';
import { Review } from './review';

const textSteps = proxyActivities<InvoiceActivities>(extractTextOptions);
const modelSteps = proxyActivities<InvoiceActivities>(modelCallOptions);
const ledgerSteps = proxyActivities<InvoiceActivities>(ledgerOptions);

/** An operator abandoned a dead-lettered job, or its dead-letter wait expired. */
class JobAbandoned extends Error {
  constructor(readonly jobError: StepFailure) {
    super(jobError.message);
  }
}

type RunStep = <T extends { attempt: number }>(step: JobStep, activity: () => Promise<T>) => Promise<T>;

/**
 * A step whose every attempt was refused by the shared token budget never reached the provider: nothing is wrong
 * with the job, the fleet is just busy. It is scheduled again (fresh attempts) instead of parking, for up to this
 * long in all; past it something is off (a budget far too small for the load) and the job parks as usual.
 */
const BUDGET_WAIT_LIMIT_MS = 6 * 60 * 60 * 1000;
const BUDGET_WAIT_PATCH = 'budget-refusals-reschedule';

/**
 * One invoice, from uploaded document to ledger entry (DESIGN.md §2). Deterministic orchestration only: every
 * read, model call and post is an activity, and validation results arrive recorded in history.
 * Ends `posted`, `rejected` or `review_expired` (completed), or `failed` (the workflow fails, its JobState in the
 * failure's details) after a dead-lettered step is abandoned or left alone too long.
 */
export async function invoiceWorkflow(input: InvoiceJobInput): Promise<JobState> {
  const tracker = new JobTracker(input);
  const { state } = tracker;
  const review = new Review(input, tracker);
  const deadLetters = new DeadLetters(input, tracker);
  const notify = () => notifyClient(input, tracker);
  setHandler(statusQuery, () => state);

  /** Runs a step; when it fails for good the job parks as a dead letter and, on `retry`, runs the step again. */
  const run: RunStep = async (step, activity) => {
    let startedAt = Date.now();
    for (;;) {
      tracker.setStatus('processing', step);
      try {
        const result = await activity();
        state.attempts[step] = result.attempt;
        jobMetrics.stepFinished({ priority: input.priority, step, outcome: 'completed', durationMs: Date.now() - startedAt });
        return result;
      } catch (error) {
        const jobError = describeFailure(step, error);
        const billed = failureDetailsOf(error)?.billedUsage;
        if (billed) tracker.addUsage(billed);
        if (
          currentErrorType(jobError.type) === TokenBudgetExhaustedError.name &&
          Date.now() - startedAt < BUDGET_WAIT_LIMIT_MS &&
          patched(BUDGET_WAIT_PATCH)
        ) {
          log.info('every attempt was refused by the token budget; scheduling the step again', { step });
          continue;
        }
        jobMetrics.stepFinished({ priority: input.priority, step, outcome: 'failed', durationMs: Date.now() - startedAt });
        const outcome = await deadLetters.park(jobError, notify);
        if (outcome !== 'retry') {
          throw new JobAbandoned(
            outcome === 'expired' ? { ...jobError, message: `${jobError.message} (dead letter expired)` } : jobError,
          );
        }
        log.info('operator retries the failed step', { step });
        startedAt = Date.now();
      }
    }
  };

  const reportFinished = (status: JobFinished['status']) =>
    jobMetrics.jobFinished({
      jobType: 'invoice',
      priority: input.priority,
      status,
      durationMs: Date.now() - Date.parse(input.submittedAt),
      usage: state.usage,
    });

  const finish = async (status: 'posted' | 'rejected' | 'review_expired'): Promise<JobState> => {
    tracker.setStatus(status);
    reportFinished(status);
    await notify();
    await condition(allHandlersFinished);
    return state;
  };

  try {
    const text = await run('extractText', () =>
      textSteps.extractText.executeWithOptions({ ...extractTextOptions, summary: activitySummaries.extractText(input) }, [
        { ...jobContext(input), document: input.document },
      ]),
    );
    state.textKey = text.textKey;

    const classified = await run('classifyDocument', () =>
      modelSteps.classifyDocument.executeWithOptions({ ...modelCallOptions, summary: activitySummaries.classifyDocument(input) }, [
        { ...jobContext(input), textKey: text.textKey },
      ]),
    );
    tracker.addUsage(classified.usage);
    state.documentType = classified.classification.documentType;
    if (classified.classification.documentType !== 'invoice') {
      state.error = {
        type: 'NotAnInvoice',
        message: `the document is not an invoice: ${classified.classification.documentType} (confidence ${classified.classification.confidence})`,
        step: 'classifyDocument',
        retryable: false,
      };
      return await finish('rejected');
    }

    const extracted = await extractWithRetries(input, text.textKey, run, (usage) => tracker.addUsage(usage));
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
      const decision = await review.await(notify);
      if (!decision) return await finish('review_expired');
      const decidedAt = new Date().toISOString();
      if (decision.decision === 'reject') {
        state.review = { decision: 'rejected', reviewer: decision.reviewer, reason: decision.reason, decidedAt };
        return await finish('rejected');
      }
      state.review = { decision: 'approved', reviewer: decision.reviewer, fields: decision.fields, decidedAt };
      fields = decision.fields;
    }

    state.fields = fields;
    const approved = fields;
    const posted = await run('postInvoiceToLedger', () =>
      ledgerSteps.postInvoiceToLedger.executeWithOptions(
        { ...ledgerOptions, summary: activitySummaries.postInvoiceToLedger(input, approved) },
        [{ ...jobContext(input), invoice: approved }],
      ),
    );
    state.ledgerEntryId = posted.entryId;
    return await finish('posted');
  } catch (error) {
    if (!(error instanceof JobAbandoned)) throw error;
    state.error = error.jobError;
    tracker.setStatus('failed', error.jobError.step, error.jobError);
    reportFinished('failed');
    await notify();
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
  run: RunStep,
  addUsage: (usage: ExtractInvoiceFieldsResult['usage']) => void,
): Promise<ExtractInvoiceFieldsResult> {
  let result: ExtractInvoiceFieldsResult | undefined;
  for (let tryNumber = 1; tryNumber <= input.maxExtractionTries; tryNumber++) {
    const summary = activitySummaries.extractInvoiceFields(input, tryNumber);
    result = await run('extractInvoiceFields', () =>
      modelSteps.extractInvoiceFields.executeWithOptions({ ...modelCallOptions, summary }, [{ ...jobContext(input), textKey }]),
    );
    addUsage(result.usage);
    if (result.outcome === 'valid') return result;
    log.warn('model output failed the schema', { tryNumber, errors: result.errors.slice(0, 5) });
  }
  if (!result) throw new Error('maxExtractionTries must be at least 1');
  return result;
}
