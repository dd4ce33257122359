import { Context } from '@temporalio/activity';
import type { extractText, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { DocumentTooLargeError, InvalidDocumentError } from '../../common/errors';
import { imageSize, sniffImage, type ImageSize } from '../../common/image-header';
import { isImageMediaType, mediaLimitProblem, type ModelMediaType, type VisualDocument } from '../../common/model-media';
import { objectKeys, type ObjectStore } from '../../lib/object-store';
import type { ExtractTextInput, ExtractTextResult } from './contracts';
import { withHeartbeats } from '../heartbeat';

/** Bumped when extraction changes, so text cached under the old version is not reused. */
export const TEXT_EXTRACTOR_VERSION = 'unpdf-1';
/** ~100k tokens: beyond this a single extraction call would not fit the model's context with room to answer. */
export const MAX_TEXT_CHARACTERS = 400_000;

export function createExtractText(deps: { store: ObjectStore; maxScannedPages: number }) {
  return async function extractText(input: ExtractTextInput): Promise<ExtractTextResult> {
    const { attempt } = Context.current().info;
    const textKey = `${objectKeys.text(input.tenantId, input.document.sha256)}.${TEXT_EXTRACTOR_VERSION}`;
    // The heartbeat timeout runs from the start, so the download of a large upload is covered too.
    return withHeartbeats(async () => {
      const bytes = await deps.store.getBytes(input.document.key);
      const { contentType, key } = input.document;
      if (isImageMediaType(contentType)) {
        return await visualResult(textKey, attempt, checkedMedia({ key, bytes, mediaType: contentType, pages: 1 }, deps.maxScannedPages));
      }
      const { text, pages } = await readText(bytes, contentType);
      if (text.trim().length === 0) {
        if (contentType === 'application/pdf' && pages > 0) {
          // A scan: the model reads the pages themselves (a `document` block) instead of text we do not have.
          return await visualResult(textKey, attempt, checkedMedia({ key, bytes, mediaType: contentType, pages }, deps.maxScannedPages));
        }
        throw new InvalidDocumentError('the document is empty');
      }
      if (text.length > MAX_TEXT_CHARACTERS) {
        throw new DocumentTooLargeError(
          `the document has ${text.length} characters of text; the limit is ${MAX_TEXT_CHARACTERS}`,
        );
      }
      await deps.store.put(textKey, text, { contentType: 'text/plain; charset=utf-8' });
      return { textKey, characters: text.length, pages, attempt };
    });
  };

  /** The text object is written empty, so nothing reads stale text under `textKey`; the model steps read `visual`. */
  async function visualResult(textKey: string, attempt: number, visual: VisualDocument): Promise<ExtractTextResult> {
    await deps.store.put(textKey, '', { contentType: 'text/plain; charset=utf-8' });
    return { textKey, characters: 0, pages: visual.pages, attempt, visual };
  }
}

/** A scan held to the provider's limits (and the deployment's page cap): DocumentTooLargeError past them, not a provider 400. */
export function checkedMedia(
  scan: { key: string; bytes: Buffer; mediaType: ModelMediaType; pages: number },
  maxScannedPages: number,
): VisualDocument {
  const { key, bytes, mediaType, pages } = scan;
  let size: ImageSize | undefined;
  if (mediaType !== 'application/pdf') {
    // The API judged the first bytes only; a file that is not the image it claims would be a provider 400 later.
    size = imageSize(bytes);
    if (sniffImage(bytes) !== mediaType || !size) throw new InvalidDocumentError(`the file is not a readable ${mediaType} image`);
  }
  const problem = mediaLimitProblem({ mediaType, sizeBytes: bytes.length, pages, ...size });
  if (problem) throw new DocumentTooLargeError(problem);
  if (pages > maxScannedPages) {
    throw new DocumentTooLargeError(
      `the PDF has ${pages} pages without a text layer; this deployment reads at most ${maxScannedPages} (MODEL_SCANNED_MAX_PAGES)`,
    );
  }
  return { key, mediaType, pages, sizeBytes: bytes.length };
}

export async function readText(
  bytes: Buffer,
  contentType: 'application/pdf' | 'text/plain',
): Promise<{ text: string; pages: number }> {
  if (contentType === 'text/plain') {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    return { text, pages: 0 };
  }
  return withPdf(bytes, async (pdf, unpdf) => {
    const { totalPages, text } = await unpdf.extractText(pdf, { mergePages: true });
    return { text, pages: totalPages };
  });
}

type PdfProxy = Awaited<ReturnType<typeof getDocumentProxy>>;
/** What `use` may call of unpdf besides the open document. */
interface PdfReader {
  extractText: typeof extractText;
  getResolvedPDFJS: typeof getResolvedPDFJS;
}

/**
 * Opens a PDF for `use` and always closes it; whatever pdf.js throws on the way is the upload's fault, told as
 * InvalidDocumentError, while our own typed errors from `use` pass through.
 */
async function withPdf<T>(bytes: Buffer, use: (pdf: PdfProxy, unpdf: PdfReader) => Promise<T>): Promise<T> {
  // Loaded on first use: pdf.js is large, and workers that never read a PDF need not pay for it.
  const unpdf = await import('unpdf');
  let pdf: PdfProxy;
  try {
    // verbosity 0: pdf.js otherwise prints font warnings for many real-world PDFs.
    pdf = await unpdf.getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    throw new InvalidDocumentError(describePdfError(error), { cause: error });
  }
  try {
    return await use(pdf, unpdf);
  } catch (error) {
    if (error instanceof DocumentTooLargeError) throw error;
    throw new InvalidDocumentError(describePdfError(error), { cause: error });
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** A long document's pages: the text of each, and which are scans (no text, an image painted). */
export interface DocumentPages {
  texts: string[];
  /** 1-based page numbers. */
  scannedPages: number[];
}

/**
 * The text of each page (a plain-text upload is split at form feeds), refusing before any text is read a PDF
 * with more than `maxPages` pages, and which pages are scans: no text but an image, so a blank page costs nothing.
 * Shares the PDF reader, and its error messages, with readText.
 */
export async function readPages(
  bytes: Buffer,
  contentType: 'application/pdf' | 'text/plain',
  maxPages: number,
): Promise<DocumentPages> {
  if (contentType === 'text/plain') {
    const texts = new TextDecoder('utf-8', { fatal: false }).decode(bytes).split('\f');
    if (texts.length > maxPages) throw tooManyPages(texts.length, maxPages);
    return { texts, scannedPages: [] };
  }
  return withPdf(bytes, async (pdf, unpdf) => {
    if (pdf.numPages > maxPages) throw tooManyPages(pdf.numPages, maxPages);
    const { text: texts } = await unpdf.extractText(pdf, { mergePages: false });
    const { OPS } = await unpdf.getResolvedPDFJS();
    const paintsImage = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);
    const scannedPages: number[] = [];
    for (const [index, text] of texts.entries()) {
      if (text.trim() !== '') continue;
      const { fnArray } = await (await pdf.getPage(index + 1)).getOperatorList();
      if (fnArray.some((op) => paintsImage.has(op))) scannedPages.push(index + 1);
    }
    return { texts, scannedPages };
  });
}

function tooManyPages(pages: number, maxPages: number): DocumentTooLargeError {
  return new DocumentTooLargeError(`the document has ${pages} pages; the limit is ${maxPages}`);
}

function describePdfError(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return 'the PDF is encrypted or password-protected; upload an unprotected copy';
  if (name === 'InvalidPDFException') return 'the file is not a readable PDF (corrupt or truncated)';
  return `the PDF could not be read: ${error instanceof Error ? error.message : String(error)}`;
}
