import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../../common/errors';
import { validateTicketBatchSummary } from '../../common/job-types/tickets-digest/digest-validation';
import { callModelOnText, type ModelStepDeps } from '../call-model-on-text';
import type { SummariseTicketBatchInput, SummariseTicketBatchResult } from './contracts';
import { digestObjectKeys } from './object-keys';
import { SUMMARISE_INSTRUCTION, SUMMARISE_MAX_TOKENS, SUMMARISE_SYSTEM, SUMMARISE_TOOL } from './prompts';

/** One batch of ticket lines to the model; its answer, checked against the schema, goes to S3 by reference. */
export function createSummariseTicketBatch(deps: ModelStepDeps) {
  return async function summariseTicketBatch(input: SummariseTicketBatchInput): Promise<SummariseTicketBatchResult> {
    const { attempt } = Context.current().info;
    const { checked, usage } = await callModelOnText(
      deps,
      { ...input, textKey: input.batchKey },
      { system: SUMMARISE_SYSTEM, instruction: SUMMARISE_INSTRUCTION, tool: SUMMARISE_TOOL, maxTokens: SUMMARISE_MAX_TOKENS },
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
