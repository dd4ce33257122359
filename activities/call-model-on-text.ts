import type { ModelGateway, ToolCallResult, ToolSpec } from '../gateway/model-call';
import type { ObjectStore } from '../lib/object-store';
import type { ModelStepInput } from './contracts';
import { withHeartbeats } from './heartbeat';

export interface ModelStepDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  model: string;
}

export interface TextPrompt {
  system: string;
  instruction: string;
  tool: ToolSpec;
  maxTokens: number;
  /** Only the head of the text is sent when set (classification needs no more). */
  maxCharacters?: number;
}

/** Reads the job's extracted text from S3 and asks the model for the prompt's tool, heartbeating meanwhile. */
export async function callModelOnText(deps: ModelStepDeps, input: ModelStepInput, prompt: TextPrompt): Promise<ToolCallResult> {
  const text = (await deps.store.getBytes(input.textKey)).toString('utf8');
  return withHeartbeats((signal) =>
    deps.gateway.callTool({
      jobId: input.jobId,
      priority: input.priority,
      model: deps.model,
      system: prompt.system,
      documentText: prompt.maxCharacters === undefined ? text : text.slice(0, prompt.maxCharacters),
      instruction: prompt.instruction,
      tool: prompt.tool,
      maxTokens: prompt.maxTokens,
      signal,
    }),
  );
}
