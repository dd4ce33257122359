import { Context } from '@temporalio/activity';
import { InvalidDocumentError } from '../../common/errors';
import type { DocumentJobSettings } from '../../common/job-types/document/document-job';
import type { ObjectStore } from '../../lib/object-store';
import { checkedMedia, readPages } from '../read-upload';
import { withHeartbeats } from '../heartbeat';
import { chunkDocumentPages, type PageChunk } from './chunk-pages';
import type { ChunkTexts } from './chunk-texts';
import type { ReadDocumentPagesInput, ReadDocumentPagesResult } from './contracts';
import { documentKeys, mapBounded } from './document-keys';

/** S3 puts of scanned pages at once: enough to hide the round trips, few enough not to swamp a small S3. */
const PARALLEL_PUTS = 8;

/**
 * The map's input: the text of every page, cut into chunks by tokens, the chunks' texts in S3 as one object that
 * each worker reads once for all its chunks (chunk-texts.ts), and each scanned page as a PDF of its own. Only
 * counts, page ranges and keys go back to the workflow.
 */
export function createReadDocumentPages(deps: { store: ObjectStore; settings: DocumentJobSettings; texts: ChunkTexts }) {
  return async function readDocumentPages(input: ReadDocumentPagesInput): Promise<ReadDocumentPagesResult> {
    const { attempt } = Context.current().info;
    return withHeartbeats(async () => {
      const settings = { ...deps.settings, ...input.settings };
      const { contentType } = input.document;
      // The API takes only PDFs and text for this type (its definition's `accepts`); an image here is a bad input.
      if (contentType !== 'application/pdf' && contentType !== 'text/plain') {
        throw new InvalidDocumentError(`a document job reads PDFs and text, not ${contentType}`);
      }
      const bytes = await deps.store.getBytes(input.document.key);
      const { texts, scannedPages } = await readPages(bytes, contentType, settings.maxPages);
      const chunks = chunkDocumentPages(texts, new Set(scannedPages), settings.chunkTokens);
      if (chunks.length === 0) throw new InvalidDocumentError(texts.length > 0 ? 'the document has no text and no scanned page' : 'the document is empty');
      const prefix = documentKeys.prefix(input.tenantId, input.jobId);
      const scans = await scannedPagesCutOut(bytes, chunks);
      await mapBounded([...scans], PARALLEL_PUTS, ([index, scan]) =>
        deps.store.put(documentKeys.chunkScan(prefix, index), scan, { contentType: 'application/pdf' }),
      );
      const chunkTextsKey = await deps.texts.write(prefix, chunks.map((chunk) => chunk.text));
      return {
        pages: texts.length,
        tokens: chunks.reduce((sum, chunk) => sum + chunk.tokens, 0),
        prefix,
        spans: chunks.map((chunk) => ({ firstPage: chunk.firstPage, lastPage: chunk.lastPage, ...(chunk.scanned ? { scanned: true as const } : {}) })),
        chunkTextsKey,
        settings,
        attempt,
      };
    });
  };
}

/**
 * Each scanned page of the PDF as a one-page PDF of its own, by chunk index, held to the Messages API's limits on a
 * document block: the model then reads one page per call, whatever the length of the document.
 */
async function scannedPagesCutOut(bytes: Buffer, chunks: readonly PageChunk[]): Promise<Map<number, Buffer>> {
  const scanned = chunks.filter((chunk) => chunk.scanned);
  const scans = new Map<number, Buffer>();
  if (scanned.length === 0) return scans;
  const { PDFDocument } = await import('pdf-lib');
  const source = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  for (const chunk of scanned) {
    const page = await PDFDocument.create();
    const [copied] = await page.copyPages(source, [chunk.firstPage - 1]);
    if (copied) page.addPage(copied);
    const scan = Buffer.from(await page.save());
    // A page past the provider's size limit is the upload's fault, said before any call is made.
    checkedMedia({ key: '', bytes: scan, mediaType: 'application/pdf', pages: 1 }, 1);
    scans.set(chunk.index, scan);
  }
  return scans;
}
