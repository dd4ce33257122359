import { isTextDocument } from './media-blocks';
import { isRecord, type CountTokensRequest, type MessageContent } from './messages-request';
import { toolForSchema } from './output-format';

/** The text a person would see in a content value: the string itself, or its text blocks joined. */
export function textOfContent(content: MessageContent | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => String(block.text))
    .join('\n');
}

const DOCUMENT_PATTERN = /<document>([\s\S]*?)<\/document>/;

/**
 * The document a Slowlane worker sent: what sits between `<document>` tags in the first user
 * message. Without tags the whole message is taken, so a hand-written request still gets an answer.
 */
export function documentTextOf(request: CountTokensRequest): string {
  const firstUser = request.messages.find((message) => message.role === 'user');
  const textDocument = Array.isArray(firstUser?.content) ? firstUser.content.find(isTextDocument) : undefined;
  // A text document block (how a citations request sends its text) is the document as it stands.
  if (textDocument && isRecord(textDocument.source)) return textBlocksOf(textDocument.source).join('\n');
  const text = textOfContent(firstUser?.content);
  const tagged = DOCUMENT_PATTERN.exec(text);
  return (tagged?.[1] ?? text).trim();
}

/**
 * The tool the request makes the model use, or null when it leaves the model free to answer in text. A request
 * with `output_config.format` names none: its schema's fields say which task it is.
 */
export function requestedToolName(request: CountTokensRequest, knownTools: readonly string[]): string | null {
  const format = request.output_config?.format;
  if (format) return toolForSchema(format.schema);
  const choice = request.tool_choice;
  if (choice?.type === 'tool') return choice.name;
  if (choice?.type === 'none' || !request.tools?.length) return null;
  // With auto/any a model picks a tool it can use; this one can only use the tools it knows.
  return request.tools.map((tool) => tool.name).find((name) => knownTools.includes(name)) ?? null;
}

/** A text document source's text: a plain one's data as one piece, a custom-content one's blocks in order. */
export function textBlocksOf(source: Record<string, unknown>): string[] {
  if (typeof source.data === 'string') return [source.data];
  if (typeof source.content === 'string') return [source.content];
  if (!Array.isArray(source.content)) return [];
  return (source.content as unknown[]).flatMap((block) => (isRecord(block) && typeof block.text === 'string' ? [block.text] : []));
}
