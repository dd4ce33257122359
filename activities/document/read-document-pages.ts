import { Context } from '@temporalio/activity';
import { InvalidDocumentError } from '../../common/errors';
import type { DocumentJobSettings } from '../../common/job-types/document/document-job';
import type { ObjectStore } from '../../lib/object-store';
import { readPages } from '../extract-text';
import { withHeartbeats } from '../heartbeat';
import { chunkPages } from './chunk-pages';
import type { ReadDocumentPagesInput, ReadDocumentPagesResult } from './document-contracts';
import { documentKeys, mapBounded } from './document-keys';

/** S3 puts of chunk texts at once: enough to hide the round trips, few enough not to swamp a small S3. */
const PARALLEL_PUTS = 8;

/**
 * The map's input: the text of every page, cut into chunks by tokens, each chunk's text in S3 on its own, so a
 * chunk's activity reads a few kilobytes instead of the whole document. Only counts and page ranges go back to
 * the workflow.
 */
export function createReadDocumentPages(deps: { store: ObjectStore; settings: DocumentJobSettings }) {
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
      const pages = await readPages(bytes, contentType, settings.maxPages);
      const chunks = chunkPages(pages, settings.chunkTokens);
      if (chunks.length === 0) {
        throw new InvalidDocumentError(
          pages.length > 0
            ? `the document has ${pages.length} page(s) but no text layer (scanned pages need OCR, which Slowlane does not do yet)`
            : 'the document is empty',
        );
      }
      const prefix = documentKeys.prefix(input.tenantId, input.jobId);
      await mapBounded(chunks, PARALLEL_PUTS, (chunk) =>
        deps.store.put(documentKeys.chunkText(prefix, chunk.index), chunk.text, { contentType: 'text/plain; charset=utf-8' }),
      );
      return {
        pages: pages.length,
        tokens: chunks.reduce((sum, chunk) => sum + chunk.tokens, 0),
        prefix,
        spans: chunks.map((chunk) => ({ firstPage: chunk.firstPage, lastPage: chunk.lastPage })),
        settings,
        attempt,
      };
    });
  };
}
