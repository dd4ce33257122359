/**
 * A document the model reads by looking, not from text: a PDF page without a text layer goes as a `document` block,
 * a PNG or JPEG upload as an `image` block (docs/scanned-documents.md). Pure and workflow-safe: the API, the
 * activities, the gateway and the simulator hold the same limits.
 */

/** The image kinds Slowlane takes (the Messages API also reads GIF and WebP; invoices do not come as those). */
export type ImageMediaType = 'image/png' | 'image/jpeg';
export type ModelMediaType = 'application/pdf' | ImageMediaType;
export const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = ['image/png', 'image/jpeg'];

/**
 * The Messages API's own limits (platform.claude.com/docs/en/build-with-claude/vision and …/pdf-support): a request
 * over them is a 400 or 413 from the provider, so we refuse earlier and say which limit.
 */
export const MESSAGES_API_MEDIA_LIMITS = {
  /** "image exceeds 5 MB maximum", counted on the base64 string. */
  imageMaxBase64Bytes: 5 * 1024 * 1024,
  /** "If you submit an image larger than 8000x8000 px, it will be rejected." */
  imageMaxSidePx: 8000,
  /** PDF support: "Maximum pages per request: 100". */
  pdfMaxPages: 100,
  /** Both pages: the whole request body, base64 included. */
  requestMaxBytes: 32 * 1024 * 1024,
} as const;

/** Room kept in a request for the prompt, the tool schema and the JSON around the base64. */
const PROMPT_ROOM_BYTES = 1024 * 1024;

/** The largest image file whose base64 stays within the provider's 5 MB: 3.75 MiB. */
export const IMAGE_MAX_BYTES = (MESSAGES_API_MEDIA_LIMITS.imageMaxBase64Bytes / 4) * 3;
/** The largest text-less PDF that fits one request once base64-encoded (about 23 MiB). */
export const SCANNED_PDF_MAX_BYTES = Math.floor(((MESSAGES_API_MEDIA_LIMITS.requestMaxBytes - PROMPT_ROOM_BYTES) / 4) * 3);

/**
 * Tokens reserved before a call, from the pages of vision and PDF support: an image is resized to at most ~1,600
 * tokens (width × height / 750 below that); a PDF page costs its text (none here) plus its page image. High on
 * purpose: the gateway settles every call to its real usage, so an estimate that errs high costs only a short wait.
 */
export const IMAGE_TOKENS_MAX = 1600;
export const PDF_PAGE_TOKENS = 3000;

/** The scanned document a model step reads instead of text: where its bytes are and what they are. */
export interface VisualDocument {
  key: string;
  mediaType: ModelMediaType;
  pages: number;
  sizeBytes: number;
}

/** The document as it goes to the gateway: inline as base64, or uploaded once and named by its Files API id. */
export type DocumentMedia = InlineMedia | ProviderFileMedia;

/** Base64 bytes and the pages they hold: the whole scan travels in every request. */
export interface InlineMedia {
  mediaType: ModelMediaType;
  base64: string;
  pages: number;
}

/** A scan uploaded to the provider's Files API (MODEL_FILES_API): each request carries only its id. */
export interface ProviderFileMedia {
  mediaType: ModelMediaType;
  fileId: string;
  /** The uploaded file's size, held to the same limits as an inline scan. */
  sizeBytes: number;
  pages: number;
}

export function isProviderFileMedia(media: DocumentMedia): media is ProviderFileMedia {
  return 'fileId' in media;
}

export function isImageMediaType(value: string): value is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(value);
}

export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

export function mediaTokenEstimate(media: Pick<DocumentMedia, 'mediaType' | 'pages'>): number {
  return media.mediaType === 'application/pdf' ? PDF_PAGE_TOKENS * Math.max(1, media.pages) : IMAGE_TOKENS_MAX;
}

/** What is wrong with a media document against the provider's limits, or null when it fits one request. */
export function mediaLimitProblem(media: { mediaType: ModelMediaType; sizeBytes: number; pages: number; width?: number; height?: number }): string | null {
  const limits = MESSAGES_API_MEDIA_LIMITS;
  if (media.mediaType === 'application/pdf') {
    if (media.pages > limits.pdfMaxPages) {
      return `the PDF has ${media.pages} pages without a text layer; the model reads at most ${limits.pdfMaxPages} scanned pages per request`;
    }
    if (media.sizeBytes > SCANNED_PDF_MAX_BYTES) {
      return `the scanned PDF is ${media.sizeBytes} bytes; at most ${SCANNED_PDF_MAX_BYTES} fit one model request (32 MB with base64)`;
    }
    return null;
  }
  if (media.sizeBytes > IMAGE_MAX_BYTES) {
    return `the image is ${media.sizeBytes} bytes; the model takes at most ${IMAGE_MAX_BYTES} (5 MB once base64-encoded)`;
  }
  const side = Math.max(media.width ?? 0, media.height ?? 0);
  if (side > limits.imageMaxSidePx) {
    return `the image is ${media.width}x${media.height} px; the model takes at most ${limits.imageMaxSidePx}x${limits.imageMaxSidePx} px`;
  }
  return null;
}
