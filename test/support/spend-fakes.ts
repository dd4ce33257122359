import type { ModelGateway, ToolCallRequest, ToolCallResult } from '../../gateway/model-call';

/** A model provider that bills `costUsd` per call and counts the calls that reached it. */
export function modelProvider(costUsd: number): ModelGateway & { calls: number } {
  const fake = {
    calls: 0,
    async callTool(request: ToolCallRequest): Promise<ToolCallResult> {
      fake.calls += 1;
      return {
        toolInput: {},
        stopReason: 'tool_use',
        model: request.model,
        usage: { inputTokens: 1000, outputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd },
      };
    },
  };
  return fake;
}

/** A small tool call of `tenantId`'s on claude-haiku-4-5, at most 100 output tokens. */
export const toolRequest = (tenantId: string): ToolCallRequest => ({
  jobId: 'document:demo:k',
  tenantId,
  priority: 'bulk',
  model: 'claude-haiku-4-5',
  system: 'summarise',
  documentText: 'x'.repeat(350),
  instruction: 'summarise',
  tool: { name: 'record', description: 'record', inputSchema: { type: 'object' } },
  maxTokens: 100,
});
