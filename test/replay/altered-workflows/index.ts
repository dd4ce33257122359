/**
 * A deliberately broken deploy for the negative replay test: the invoice workflow as someone might "improve"
 * it, classifying before reading the text (to save a PDF read on non-invoices), shipped without `patched()`.
 * Every job already past its first step would fail to replay on it.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { InvoiceActivities } from '../../../activities';
import type { InvoiceJobInput, JobState } from '../../../common/job';
import { extractTextOptions, modelCallOptions } from '../../../workflows/activity-options';
import { JobTracker } from '../../../workflows/job-tracker';

export { deliverWebhookWorkflow } from '../../../workflows/webhook-delivery-workflow';

const textSteps = proxyActivities<InvoiceActivities>(extractTextOptions);
const modelSteps = proxyActivities<InvoiceActivities>(modelCallOptions);

export async function invoiceWorkflow(input: InvoiceJobInput): Promise<JobState> {
  const tracker = new JobTracker(input);
  const context = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority };
  tracker.setStatus('processing', 'classifyDocument');
  await modelSteps.classifyDocument({ ...context, textKey: `texts/${input.tenantId}/${input.document.sha256}.txt` });
  tracker.setStatus('processing', 'extractText');
  await textSteps.extractText({ ...context, document: input.document });
  return tracker.state;
}
