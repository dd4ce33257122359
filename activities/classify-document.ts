import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../common/errors';
import { validateClassification } from '../common/validation';
import { callModelOnText, type ModelStepDeps } from './call-model-on-text';
import type { ClassifyDocumentResult, ModelStepInput } from './contracts';
import { CLASSIFY_INSTRUCTION, CLASSIFY_MAX_CHARACTERS, CLASSIFY_SYSTEM, CLASSIFY_TOOL } from './prompts';
import { usageOfCall } from './usage';

export function createClassifyDocument(deps: ModelStepDeps) {
  return async function classifyDocument(input: ModelStepInput): Promise<ClassifyDocumentResult> {
    const { attempt } = Context.current().info;
    const call = await callModelOnText(deps, input, {
      system: CLASSIFY_SYSTEM,
      instruction: CLASSIFY_INSTRUCTION,
      tool: CLASSIFY_TOOL,
      maxTokens: 256,
      maxCharacters: CLASSIFY_MAX_CHARACTERS,
    });
    const checked = validateClassification(call.toolInput);
    if (!checked.ok) {
      // A garbled classification is rare and cheap to redo; retry rather than guess the document type.
      // The call was billed: the failure carries its usage so the job's total still counts it.
      throw new ModelUnavailableError(`the model's classification did not match the schema: ${checked.errors.join('; ')}`, {
        details: { billedUsage: usageOfCall(call.usage) },
      });
    }
    return { classification: checked.value, usage: usageOfCall(call.usage), attempt };
  };
}
