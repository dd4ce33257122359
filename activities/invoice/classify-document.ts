import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../../common/errors';
import { validateClassification } from '../../common/validation';
import { callModelOnText, type ModelStepDeps, type TextPrompt } from '../call-model-on-text';
import type { FromBatch } from '../../common/batch-lane';
import type { ClassifyDocumentResult } from './contracts';
import type { ModelStepInput } from '../step-contracts';
import { CLASSIFY_INSTRUCTION, CLASSIFY_MAX_CHARACTERS, CLASSIFY_SYSTEM, CLASSIFY_TOOL } from './prompts';

export const CLASSIFY_PROMPT: TextPrompt = {
  system: CLASSIFY_SYSTEM,
  instruction: CLASSIFY_INSTRUCTION,
  tool: CLASSIFY_TOOL,
  maxTokens: 256,
  maxCharacters: CLASSIFY_MAX_CHARACTERS,
};

export function createClassifyDocument(deps: ModelStepDeps) {
  return async function classifyDocument(input: ModelStepInput & FromBatch): Promise<ClassifyDocumentResult> {
    const { attempt } = Context.current().info;
    const answer = await callModelOnText(deps, input, CLASSIFY_PROMPT, validateClassification);
    if (!answer.checked.ok) {
      // Still garbled after the repair loop: rare and cheap to redo; retry rather than guess the document type.
      // The calls were billed: the failure carries their usage so the job's total still counts it.
      throw new ModelUnavailableError(`the model's classification did not match the schema: ${answer.checked.errors.join('; ')}`, {
        details: { billedUsage: answer.usage },
      });
    }
    return { classification: answer.checked.value, usage: answer.usage, attempt };
  };
}
