import { Context } from '@temporalio/activity';
import { CallSummary } from '../../common/job-types/call/call-summary';
import { validateAgainst } from '../../common/validation';
import { callModelOnText, type ModelStepDeps } from '../call-model-on-text';
import { briefErrors } from '../repair-loop';
import type { SummarizeCallInput, SummarizeCallResult } from './contracts';
import { CALL_SUMMARY_PROMPT } from './prompts';

/** Kept for the reviewer: enough of a wrong answer to see what went wrong, small enough for history. */
const RAW_OUTPUT_CHARS = 4_000;

/**
 * The transcript to the model for a summary, action items and outcome (the repair loop shows it its schema errors);
 * an answer still invalid after the repairs is a result, not an error: the workflow sends it to a reviewer.
 */
export function createSummarizeCall(deps: ModelStepDeps) {
  return async function summarizeCall(input: SummarizeCallInput): Promise<SummarizeCallResult> {
    const { attempt } = Context.current().info;
    const answer = await callModelOnText(
      deps,
      { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority, textKey: input.textKey },
      CALL_SUMMARY_PROMPT,
      (value) => validateAgainst(CallSummary, value),
    );
    if (answer.checked.ok) return { outcome: 'valid', summary: answer.checked.value, usage: answer.usage, attempt };
    return {
      outcome: 'invalid',
      rawOutput: JSON.stringify(answer.call.toolInput ?? null).slice(0, RAW_OUTPUT_CHARS),
      errors: briefErrors(answer.checked.errors),
      usage: answer.usage,
      attempt,
    };
  };
}
