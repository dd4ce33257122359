import { isMediaBlock, mediaBlockTokens } from './media-blocks';
import type { ContentBlock, CountTokensRequest, MessageContent } from './messages-request';

/**
 * The simulator's tokenizer: ceil(characters / 4) over the system prompt, the messages' text and the
 * JSON of the tools, plus images and PDF pages by their pixels and pages (media-blocks.ts) — about what English text costs on the real models. Characters are UTF-16 code
 * units (String.length). count_tokens and the Messages call's usage.input_tokens both come from here,
 * so they always agree, as the gateway's settle-to-actual logic expects.
 */
export const CHARS_PER_TOKEN = 4;

export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function blockChars(block: ContentBlock): number {
  if (block.type === 'text' && typeof block.text === 'string') return block.text.length;
  if (block.type === 'tool_use') return JSON.stringify(block.input ?? {}).length;
  if (block.type === 'tool_result') {
    const content = block.content;
    if (typeof content === 'string') return content.length;
    return Array.isArray(content)
      ? content.reduce<number>((sum, inner: ContentBlock) => sum + blockChars(inner), 0)
      : 0;
  }
  // Images and documents are counted by their pixels and pages (mediaBlockTokens), not as characters.
  if (isMediaBlock(block)) return 0;
  return JSON.stringify(block.source ?? '').length;
}

function contentMediaTokens(content: MessageContent | undefined): number {
  if (content === undefined || typeof content === 'string') return 0;
  return content.reduce((sum, block) => sum + (isMediaBlock(block) ? mediaBlockTokens(block) : 0), 0);
}

function contentChars(content: MessageContent | undefined): number {
  if (content === undefined) return 0;
  if (typeof content === 'string') return content.length;
  return content.reduce((sum, block) => sum + blockChars(block), 0);
}

export function countInputTokens(request: CountTokensRequest): number {
  let chars = contentChars(request.system);
  let media = 0;
  for (const message of request.messages) {
    chars += contentChars(message.content);
    media += contentMediaTokens(message.content);
  }
  if (request.tools?.length) chars += JSON.stringify(request.tools).length;
  // The schema of a constrained answer is read as part of the prompt, like a tool's.
  if (request.output_config?.format) chars += JSON.stringify(request.output_config.format).length;
  return Math.max(1, tokensForChars(chars) + media);
}
