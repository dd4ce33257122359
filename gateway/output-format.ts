import type Anthropic from '@anthropic-ai/sdk';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import type { ToolSpec } from './model-call';

/**
 * The step's own schema (its tool's input schema) as the Messages API's structured outputs accept it, made by the
 * SDK's own transform (`@anthropic-ai/sdk` src/lib/transform-json-schema.ts): every object closed with
 * `additionalProperties: false`, and what constrained decoding cannot enforce (numeric bounds, string lengths,
 * patterns, unsupported formats, array sizes past minItems 0/1) moved into the description, where the model still
 * reads it. ajv then checks the answer against the full schema, so nothing the transform drops goes unchecked.
 */
export function constrainedFormatOf(tool: ToolSpec): Anthropic.JSONOutputFormat {
  const described = tool.inputSchema.description === undefined ? { ...tool.inputSchema, description: tool.description } : tool.inputSchema;
  return { type: 'json_schema', schema: transformJSONSchema(described) };
}

/**
 * The answer of a constrained call: the text block's JSON, parsed. Text that is not JSON (an answer cut at
 * max_tokens) is handed back as the string it is, so the caller's validator rejects it with the raw output in hand.
 */
export function constrainedAnswerOf(message: Anthropic.Message): unknown {
  const text = message.content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
