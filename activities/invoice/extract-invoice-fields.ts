import { Context } from '@temporalio/activity';
import { overallConfidence, type Invoice, type InvoiceExtraction } from '../../common/invoice';
import { validateExtraction, validateInvoice } from '../../common/validation';
import type { FromBatch } from '../../common/batch-lane';
import { addUsage } from '../../common/usage-sum';
import { citeInvoiceFields } from './cite-invoice-fields';
import { callModelOnText, type ModelStepDeps, type TextPrompt } from '../call-model-on-text';
import type { ExtractInvoiceFieldsResult } from './contracts';
import type { ModelStepInput } from '../step-contracts';
import { EXTRACT_INSTRUCTION, EXTRACT_MAX_TOKENS, EXTRACT_SYSTEM, EXTRACT_TOOL } from './prompts';

/** Raw output kept for the reviewer is capped: it travels in workflow history. */
const RAW_OUTPUT_LIMIT = 16_000;

export const EXTRACT_PROMPT: TextPrompt = {
  system: EXTRACT_SYSTEM,
  instruction: EXTRACT_INSTRUCTION,
  tool: EXTRACT_TOOL,
  maxTokens: EXTRACT_MAX_TOKENS,
};

export function createExtractInvoiceFields(deps: ModelStepDeps & { /** MODEL_FIELD_CITATIONS; absent: no citations call. */ citeFields?: boolean }) {
  /**
   * Schema-invalid output (after the repair loop) is a result, not an error: the workflow decides whether to ask again or to send the
   * job to review with the raw output attached. Validation happens here, so its outcome is recorded in history
   * and a schema change in a later deploy cannot change how an old job replays.
   */
  return async function extractInvoiceFields(input: ModelStepInput & FromBatch): Promise<ExtractInvoiceFieldsResult> {
    const { attempt } = Context.current().info;
    const { call, checked, usage } = await callModelOnText(deps, input, EXTRACT_PROMPT, validateExtraction);
    if (!checked.ok) {
      const reason = call.toolInput === undefined ? [`no ${EXTRACT_TOOL.name} call (stop reason ${call.stopReason})`] : [];
      return {
        outcome: 'schema_invalid',
        rawOutput: JSON.stringify(call.toolInput ?? null).slice(0, RAW_OUTPUT_LIMIT),
        errors: [...reason, ...checked.errors],
        usage,
        attempt,
      };
    }
    const invoice = toPostableInvoice(checked.value);
    const cited = deps.citeFields ? await citeInvoiceFields(deps, input, checked.value) : undefined;
    return {
      outcome: 'valid',
      extraction: cited ? { ...checked.value, citations: cited.citations } : checked.value,
      invoice: invoice.ok ? invoice.value : null,
      invoiceErrors: invoice.ok ? [] : invoice.errors,
      confidence: overallConfidence(checked.value),
      usage: cited?.usage ? addUsage(usage, cited.usage) : usage,
      attempt,
    };
  };
}

function toPostableInvoice(extraction: InvoiceExtraction) {
  return validateInvoice({ ...extraction.invoice } satisfies Record<keyof Invoice, unknown>);
}
