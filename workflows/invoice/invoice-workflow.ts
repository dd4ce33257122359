import { log, patched, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import type { ExtractInvoiceFieldsResult, ExtractTextResult } from '../../activities/invoice/contracts';
import type { ModelStepInput } from '../../activities/step-contracts';
import type { FromBatch } from '../../common/batch-lane';
import type { Invoice } from '../../common/invoice';
import type { JobState } from '../../common/job';
import type { InvoiceJobInput, InvoiceJobState } from '../../common/job-types/invoice/invoice-job';
import { invoiceJobType } from '../../common/job-types/invoice/definition';
import {
  entryTextOptions,
  extractTextOptions,
  firstModelCallOptions,
  ledgerOptions,
  modelCallOptions,
} from '../activity-options';
import { activitySummaries } from '../activity-summaries';
import { BatchLaneWait } from '../batch-lane/batch-lane-wait';
import { beyondCancel, JobRun, type RunStep } from '../job-run';
import { PATCHES } from '../patches';

const textSteps = proxyActivities<JobActivities>(extractTextOptions);
const modelSteps = proxyActivities<JobActivities>(modelCallOptions);
const ledgerSteps = proxyActivities<JobActivities>(ledgerOptions);

/**
 * One invoice, from uploaded document to ledger entry (docs/architecture.md). Deterministic orchestration only: every
 * read, model call and post is an activity, and validation results arrive recorded in history.
 * Ends `posted`, `rejected`, `review_expired` or `cancelled` (completed), or `failed` (the workflow fails, its
 * JobState in the failure's details) after a dead-lettered step is abandoned or left alone too long.
 */
export async function invoiceWorkflow(input: InvoiceJobInput): Promise<JobState> {
  const job = new JobRun(input, invoiceJobType);
  const { tracker, review, run, notify } = job;
  const state: InvoiceJobState = job.state;
  const batchLane = new BatchLaneWait(input);

  return job.settle(async () => {
    const tenantsTakeTurns = patched(PATCHES.tenantsTakeTurnsAtFirstModelCall.id);
    const textOptions = tenantsTakeTurns ? entryTextOptions : extractTextOptions;
    const classifyOptions = tenantsTakeTurns ? firstModelCallOptions : modelCallOptions;
    const text = await run('extractText', () =>
      textSteps.extractText.executeWithOptions({ ...textOptions, summary: activitySummaries.extractText(input) }, [
        { ...jobContext(input), document: input.document },
      ]),
    );
    state.textKey = text.textKey;
    if (text.visual) job.deletesProviderFilesAtEnd();

    const modelStepInput = { ...jobContext(input), ...documentOf(text) };
    // A bulk job's first call of each model step may take the batch lane (half the price); repairs go live.
    const classifyFromBatch = await batchLane.firstCall({ step: 'classifyDocument', input: modelStepInput }, () =>
      tracker.setStatus('processing', 'classifyDocument'),
    );
    const classified = await run('classifyDocument', () =>
      modelSteps.classifyDocument.executeWithOptions({ ...classifyOptions, summary: activitySummaries.classifyDocument(input) }, [
        { ...modelStepInput, ...classifyFromBatch() },
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
      return await job.finish('rejected');
    }

    const extractFromBatch = await batchLane.firstCall({ step: 'extractInvoiceFields', input: modelStepInput }, () =>
      tracker.setStatus('processing', 'extractInvoiceFields'),
    );
    const extracted = await extractWithRetries(input, documentOf(text), extractFromBatch, run, (usage) => tracker.addUsage(usage));
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
      if (!decision) return await job.finish('review_expired');
      const decidedAt = new Date().toISOString();
      if (decision.decision === 'reject') {
        state.review = { decision: 'rejected', reviewer: decision.reviewer, reason: decision.reason, decidedAt };
        return await job.finish('rejected');
      }
      // The review validator accepts no approval without fields that match the definition's editable result.
      const approvedFields = decision.fields as Invoice;
      state.review = { decision: 'approved', reviewer: decision.reviewer, fields: approvedFields, decidedAt };
      fields = approvedFields;
    }

    const approved = fields;
    // A cancel that arrives while the post runs is too late: the entry may exist, so the job ends posted.
    return beyondCancel(async () => {
      const posted = await run('postInvoiceToLedger', () =>
        ledgerSteps.postInvoiceToLedger.executeWithOptions(
          { ...ledgerOptions, summary: activitySummaries.postInvoiceToLedger(input, approved) },
          [{ ...jobContext(input), invoice: approved }],
        ),
      );
      state.result = { fields: approved, ledgerEntryId: posted.entryId };
      return await job.finish('posted');
    });
  });
}

/**
 * What the model steps read: the text, or a scan's bytes. Only activity inputs change with `visual` (Temporal does
 * not compare them on replay), so histories recorded before scans were read replay unchanged.
 */
function documentOf(text: ExtractTextResult): Pick<ModelStepInput, 'textKey' | 'visual'> {
  return text.visual ? { textKey: text.textKey, visual: text.visual } : { textKey: text.textKey };
}

function jobContext(input: InvoiceJobInput) {
  return { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority };
}

/**
 * Asks again (bounded) when the model's answer does not match the schema; the last answer goes to review. Only the
 * first try may read a batch answer (`fromBatch` yields it once): every try after it asks live.
 */
async function extractWithRetries(
  input: InvoiceJobInput,
  document: Pick<ModelStepInput, 'textKey' | 'visual'>,
  fromBatch: () => FromBatch,
  run: RunStep,
  addUsage: (usage: ExtractInvoiceFieldsResult['usage']) => void,
): Promise<ExtractInvoiceFieldsResult> {
  let result: ExtractInvoiceFieldsResult | undefined;
  for (let tryNumber = 1; tryNumber <= input.maxExtractionTries; tryNumber++) {
    const summary = activitySummaries.extractInvoiceFields(input, tryNumber);
    result = await run('extractInvoiceFields', () =>
      modelSteps.extractInvoiceFields.executeWithOptions({ ...modelCallOptions, summary }, [{ ...jobContext(input), ...document, ...fromBatch() }]),
    );
    addUsage(result.usage);
    if (result.outcome === 'valid') return result;
    log.warn('model output failed the schema', { tryNumber, errors: result.errors.slice(0, 5) });
  }
  if (!result) throw new Error('maxExtractionTries must be at least 1');
  return result;
}
