import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../../common/errors';
import { validateTicketBatchSummary } from '../../common/job-types/tickets-digest/digest-validation';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import { callModelOnText, firstModelStepCall, type ModelStepDeps } from '../call-model-on-text';
import type { ModelStepInput } from '../step-contracts';
import type { SummariseTicketBatchInput, SummariseTicketBatchResult, SummariseTicketBatchStepInput } from './contracts';
import { digestObjectKeys } from './object-keys';
import { SUMMARISE_PROMPT } from './prompts';

/** The batch of ticket lines is the text the model reads. */
const batchText = (input: SummariseTicketBatchInput): ModelStepInput => ({
  jobId: input.jobId,
  tenantId: input.tenantId,
  priority: input.priority,
  textKey: input.batchKey,
});

/** A batch's summary call: what the step sends live, and what its batch entry carries. */
export function ticketBatchSummaryCall(deps: ModelStepDeps, input: SummariseTicketBatchInput): Promise<BatchToolCall> {
  return firstModelStepCall(deps, batchText(input), SUMMARISE_PROMPT);
}

/**
 * One batch of ticket lines to the model; its answer, checked against the schema, goes to S3 by reference. The
 * first call's answer comes from the batch lane when the job took it (`fromBatch`); repairs and retries ask live.
 */
export function createSummariseTicketBatch(deps: ModelStepDeps) {
  return async function summariseTicketBatch(input: SummariseTicketBatchStepInput): Promise<SummariseTicketBatchResult> {
    const { attempt } = Context.current().info;
    const { checked, usage } = await callModelOnText(
      deps,
      { ...batchText(input), ...(input.fromBatch ? { fromBatch: input.fromBatch } : {}) },
      SUMMARISE_PROMPT,
      validateTicketBatchSummary,
    );
    if (!checked.ok) {
      // A garbled answer about one batch (after the repair loop) is cheap to ask again; the billed calls still count.
      throw new ModelUnavailableError(`the model's ticket summary did not match the schema: ${checked.errors.slice(0, 5).join('; ')}`, {
        details: { billedUsage: usage },
      });
    }
    const summaryKey = digestObjectKeys.summary(input.batchKey, input.jobId);
    await deps.store.put(summaryKey, JSON.stringify(checked.value), { contentType: 'application/json' });
    return { summaryKey, themes: checked.value.themes.length, urgent: checked.value.urgent.length, usage, attempt };
  };
}
