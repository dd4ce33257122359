import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../common/errors';
import { validateClassification } from '../common/validation';
import type { ModelGateway } from '../gateway/model-gateway';
import type { ObjectStore } from '../lib/object-store';
import type { ClassifyResult, ModelStepInput } from './contracts';
import { withHeartbeats } from './heartbeat';
import { CLASSIFY_INSTRUCTION, CLASSIFY_MAX_CHARACTERS, CLASSIFY_SYSTEM, CLASSIFY_TOOL } from './prompts';
import { usageOfCall } from './usage';

export function createClassifyDocument(deps: { store: ObjectStore; gateway: ModelGateway; model: string }) {
  return async function classifyDocument(input: ModelStepInput): Promise<ClassifyResult> {
    const { attempt } = Context.current().info;
    const text = (await deps.store.getBytes(input.textKey)).toString('utf8');
    const call = await withHeartbeats((signal) =>
      deps.gateway.callTool({
        jobId: input.jobId,
        priority: input.priority,
        model: deps.model,
        system: CLASSIFY_SYSTEM,
        documentText: text.slice(0, CLASSIFY_MAX_CHARACTERS),
        instruction: CLASSIFY_INSTRUCTION,
        tool: CLASSIFY_TOOL,
        maxTokens: 256,
        signal,
      }),
    );
    const checked = validateClassification(call.toolInput);
    if (!checked.ok) {
      // A garbled classification is rare and cheap to redo; retry rather than guess the document type.
      throw new ModelUnavailableError(`the model's classification did not match the schema: ${checked.errors.join('; ')}`);
    }
    return { classification: checked.value, usage: usageOfCall(call.usage), attempt };
  };
}
