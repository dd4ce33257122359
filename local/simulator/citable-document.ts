import type { CitableDocument } from './citations';
import { isTextDocument } from './media-blocks';
import { isRecord, type ContentBlock, type CountTokensRequest } from './messages-request';
import { textBlocksOf, textOfContent } from './request-text';

/**
 * The first user message's document as the citations read it: a plain-text source as it stands, a PDF as the text
 * of each page (pdf.js through unpdf, loaded on first use), so `page_location` can say which page a line is on.
 */
export async function citableDocumentOf(request: CountTokensRequest): Promise<CitableDocument> {
  const firstUser = request.messages.find((message) => message.role === 'user');
  const blocks: ContentBlock[] = Array.isArray(firstUser?.content) ? firstUser.content : [];
  const document = blocks.find((block) => block.type === 'document');
  const source = isRecord(document?.source) ? document.source : {};
  if (document && isTextDocument(document)) {
    // Custom content is cited block by block, never chunked further (content_block_location).
    return source.type === 'content' ? { kind: 'blocks', blocks: textBlocksOf(source) } : { kind: 'text', text: typeof source.data === 'string' ? source.data : '' };
  }
  if (typeof source.data !== 'string') return { kind: 'text', text: '' };
  const unpdf = await import('unpdf');
  const pdf = await unpdf.getDocumentProxy(new Uint8Array(Buffer.from(source.data, 'base64')), { verbosity: 0 });
  try {
    const { text } = await unpdf.extractText(pdf, { mergePages: false });
    return { kind: 'pdf', pages: text };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** What the request asks about the document: the first user message's text after it. */
export function questionOf(request: CountTokensRequest): string {
  const firstUser = request.messages.find((message) => message.role === 'user');
  return textOfContent(firstUser?.content);
}
