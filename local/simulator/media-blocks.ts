import { imageSize, sniffImage } from '../../common/image-header';
import { IMAGE_TOKENS_MAX, MESSAGES_API_MEDIA_LIMITS } from '../../common/model-media';
import { isRecord, type ContentBlock, type CountTokensRequest } from './messages-request';

/**
 * `image` and `document` blocks as the Messages API checks them (platform.claude.com/docs/en/build-with-claude/vision,
 * …/pdf-support): base64 sources only (url and file sources are not simulated), the media types it reads, data that
 * decodes and is what it claims, 5 MB per image, 8000 px per side, 100 PDF pages. Messages follow the provider's.
 */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** A page's image: what a page without text costs (the pdf-support page: text tokens plus the page as an image). */
const PDF_PAGE_IMAGE_TOKENS = 1600;

/** An image, or a document the model reads by looking (a PDF); a plain-text document is text. */
export function isMediaBlock(block: ContentBlock): boolean {
  return block.type === 'image' || (block.type === 'document' && !isTextDocument(block));
}

/** A `document` whose source is text: plain (`{ type: 'text', media_type: 'text/plain', data }`) or custom content (`{ type: 'content', content }`). */
export function isTextDocument(block: ContentBlock): boolean {
  return block.type === 'document' && isRecord(block.source) && (block.source.type === 'text' || block.source.type === 'content');
}

function textDocumentProblem(block: ContentBlock, path: string): string | null {
  const source = block.source as Record<string, unknown>;
  if (source.type === 'content') {
    if (typeof source.content === 'string') return null;
    if (!Array.isArray(source.content) || source.content.length === 0) return `${path}.source.content: Field required`;
    for (const [index, inner] of (source.content as unknown[]).entries()) {
      // The API also takes images here (never cited); the simulator reads text only.
      if (!isRecord(inner) || inner.type !== 'text') return `${path}.source.content.${index}: only text blocks are simulated in custom content`;
      if (typeof inner.text !== 'string' || inner.text === '') return `${path}.source.content.${index}.text: text content blocks must be non-empty`;
    }
    return null;
  }
  if (source.media_type !== 'text/plain') return `${path}.source.text.media_type: Input should be 'text/plain'`;
  if (typeof source.data !== 'string') return `${path}.source.text.data: Field required`;
  return null;
}

/** What is wrong with a media block, worded as the provider's 400s are, or null. */
export function mediaBlockProblem(block: ContentBlock, path: string): string | null {
  const kind = block.type === 'image' ? 'image' : 'pdf';
  const source = block.source;
  if (!isRecord(source)) return `${path}.source: Field required`;
  if (source.type !== 'base64') return `${path}.source.type: only 'base64' sources are simulated`;
  const at = `${path}.${kind}.source.base64`;
  if (typeof source.data !== 'string' || source.data.length % 4 !== 0 || !BASE64.test(source.data)) {
    return `${at}.data: invalid base64 data`;
  }
  if (block.type === 'image') {
    if (typeof source.media_type !== 'string' || !IMAGE_TYPES.includes(source.media_type)) {
      return `${at}.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
    }
    if (source.data.length > MESSAGES_API_MEDIA_LIMITS.imageMaxBase64Bytes) {
      return `${at}: image exceeds 5 MB maximum: ${source.data.length} bytes > ${MESSAGES_API_MEDIA_LIMITS.imageMaxBase64Bytes} bytes`;
    }
    const bytes = Buffer.from(source.data, 'base64');
    const sniffed = sniffImage(bytes);
    // The simulator tells PNG and JPEG apart; GIF and WebP are taken on trust.
    if ((source.media_type === 'image/png' || source.media_type === 'image/jpeg') && sniffed !== source.media_type) {
      return `${at}: Image does not match the provided media type ${source.media_type}`;
    }
    const size = imageSize(bytes);
    if (size && Math.max(size.width, size.height) > MESSAGES_API_MEDIA_LIMITS.imageMaxSidePx) {
      return `${at}.data: At least one of the image dimensions exceed max allowed size: ${MESSAGES_API_MEDIA_LIMITS.imageMaxSidePx} pixels`;
    }
    return null;
  }
  if (source.media_type !== 'application/pdf') return `${at}.media_type: Input should be 'application/pdf'`;
  const bytes = Buffer.from(source.data, 'base64');
  if (!bytes.subarray(0, 1024).includes('%PDF-')) return `${at}.data: The PDF specified was not valid.`;
  if (pdfPages(bytes) > MESSAGES_API_MEDIA_LIMITS.pdfMaxPages) {
    return `A maximum of ${MESSAGES_API_MEDIA_LIMITS.pdfMaxPages} PDF pages may be provided.`;
  }
  return null;
}

/** Page objects counted in the file; a PDF whose pages hide in compressed object streams counts as one. */
export function pdfPages(bytes: Buffer): number {
  const pages = bytes.toString('latin1').match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  return Math.max(1, pages);
}

/** Tokens of a media block: an image by its pixels (width × height / 750, at most ~1,600), a PDF by its pages. */
export function mediaBlockTokens(block: ContentBlock): number {
  const source = isRecord(block.source) ? block.source : {};
  const bytes = typeof source.data === 'string' ? Buffer.from(source.data, 'base64') : Buffer.alloc(0);
  if (block.type === 'document') return PDF_PAGE_IMAGE_TOKENS * pdfPages(bytes);
  const size = imageSize(bytes);
  return size ? Math.min(IMAGE_TOKENS_MAX, Math.ceil((size.width * size.height) / 750)) : IMAGE_TOKENS_MAX;
}

/** Whether the first user message shows the model a scan instead of (or beside) text. */
export function hasMediaDocument(request: CountTokensRequest): boolean {
  const firstUser = request.messages.find((message) => message.role === 'user');
  return Array.isArray(firstUser?.content) && firstUser.content.some(isMediaBlock);
}

/** The first media block the provider would refuse, as its 400 message, or null. */
export function mediaProblemOf(request: CountTokensRequest): string | null {
  for (const [index, message] of request.messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [position, block] of message.content.entries()) {
      if (isTextDocument(block)) {
        const problem = textDocumentProblem(block, `messages.${index}.content.${position}`);
        if (problem) return problem;
      }
      if (!isMediaBlock(block)) continue;
      const problem = mediaBlockProblem(block, `messages.${index}.content.${position}`);
      if (problem) return problem;
    }
  }
  return null;
}
