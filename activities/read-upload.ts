/** Reading an upload: a PDF's text and pages, a scan held to the model's limits (the invoice's extractText, the document's readDocumentPages). */
import type { extractText, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { DocumentTooLargeError, InvalidDocumentError } from '../common/errors';
import { imageSize, sniffImage, type ImageSize } from '../common/image-header';
import { mediaLimitProblem, type ModelMediaType, type VisualDocument } from '../common/model-media';

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
