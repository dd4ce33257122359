import type { CitedBlock } from './citations';
import type { ModelAnswer } from './model-answer';
import type { CacheUsage } from './prompt-cache';
import { tokensForChars } from './token-count';

/** Tokens a reply costs beyond its payload (block framing, the tool name): small, like the real envelope. */
export const OUTPUT_OVERHEAD_TOKENS = 10;

export type OutputBlock = { type: 'tool_use'; id: string; name: string; input: object } | CitedBlock;

export type StopReason = 'tool_use' | 'end_turn' | 'max_tokens' | 'refusal';

export interface AssistantMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: OutputBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  stop_details: { type: 'refusal'; category: null; explanation: string } | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  };
}

export function outputTokensOf(answer: ModelAnswer): number {
  // A citation's cited_text is not billed as output, only the answer's own text (the citations page).
  const payload = answer.kind === 'tool_use' ? JSON.stringify(answer.input) : answer.kind === 'cited' ? answer.blocks.map((block) => block.text).join('') : answer.text;
  return tokensForChars(payload.length) + OUTPUT_OVERHEAD_TOKENS;
}

function fullContent(answer: ModelAnswer, toolUseId: string): OutputBlock[] {
  if (answer.kind === 'tool_use') return [{ type: 'tool_use', id: toolUseId, name: answer.tool, input: answer.input }];
  if (answer.kind === 'cited') return answer.blocks;
  return [{ type: 'text', text: answer.text, citations: null }];
}

/**
 * An answer longer than max_tokens stops there, as the real API does: text is cut, and a tool call
 * that did not fit is left out (its JSON would be incomplete), with stop_reason 'max_tokens'.
 */
function truncatedContent(answer: ModelAnswer, maxTokens: number): OutputBlock[] {
  if (answer.kind === 'tool_use') return [];
  const chars = Math.max(0, (maxTokens - OUTPUT_OVERHEAD_TOKENS) * 4);
  if (answer.kind === 'cited') {
    // Whole blocks while they fit: a cited block cut in half would cite more than it says.
    const kept: CitedBlock[] = [];
    let left = chars;
    for (const block of answer.blocks) {
      left -= block.text.length;
      if (left < 0) break;
      kept.push(block);
    }
    return kept;
  }
  return chars > 0 ? [{ type: 'text', text: answer.text.slice(0, chars), citations: null }] : [];
}

const STOP_REASON: Record<ModelAnswer['kind'], StopReason> = {
  tool_use: 'tool_use',
  text: 'end_turn',
  cited: 'end_turn',
  refusal: 'refusal',
};

export function buildAssistantMessage(input: {
  id: string;
  toolUseId: string;
  model: string;
  answer: ModelAnswer;
  input: CacheUsage;
  maxTokens: number;
}): AssistantMessage {
  const wanted = outputTokensOf(input.answer);
  const fits = wanted <= input.maxTokens;
  return {
    id: input.id,
    type: 'message',
    role: 'assistant',
    model: input.model,
    content: fits ? fullContent(input.answer, input.toolUseId) : truncatedContent(input.answer, input.maxTokens),
    stop_reason: fits ? STOP_REASON[input.answer.kind] : 'max_tokens',
    stop_sequence: null,
    stop_details:
      fits && input.answer.kind === 'refusal'
        ? { type: 'refusal', category: null, explanation: 'The simulator was told to refuse this request.' }
        : null,
    usage: {
      input_tokens: input.input.inputTokens,
      output_tokens: fits ? wanted : input.maxTokens,
      cache_creation_input_tokens: input.input.cacheCreationInputTokens,
      cache_read_input_tokens: input.input.cacheReadInputTokens,
    },
  };
}
