import { type Static, Type } from '@sinclair/typebox';
import { closed } from '../../api-contract/schema-kit';
import { defineJobType } from '../job-type';
import { documentObjectPrefix } from './object-prefix';

const count = Type.Integer({ minimum: 0 });

/** Where a document job leaves its results: S3 keys in the deployment's bucket, and what they hold. */
export const DocumentResult = closed({
  pages: count,
  chunks: count,
  chunksKey: Type.String({
    description: 'JSONL, one chunk a line: index, firstPage, lastPage, tokens, text, summary, keyTerms, embedding, embeddingModel.',
  }),
  summaryKey: Type.String({ description: 'JSON: title, summary, keyTopics, pages, chunks, model.' }),
  title: Type.String(),
});
export type DocumentResult = Static<typeof DocumentResult>;

/**
 * A long PDF read for search: text per page, chunks by tokens, an embedding and a short summary per chunk, then one
 * summary of the whole document (map, then reduce), fanned out in child workflows. docs/job-types.md.
 */
export const documentJobType = defineJobType({
  name: 'document',
  summary: 'A long PDF (up to DOCUMENT_MAX_PAGES pages) chunked, embedded and summarised for search; results in S3.',
  input: {
    kind: 'file',
    accepts: [
      { contentType: 'application/pdf', maxPages: { setting: 'DOCUMENT_MAX_PAGES' } },
      { contentType: 'text/plain', maxPages: { setting: 'DOCUMENT_MAX_PAGES' } },
    ],
  },
  workflowType: 'documentWorkflow',
  priorities: ['interactive', 'bulk'],
  // Hundreds of model calls: it should not hold back the interactive queue unless asked to.
  defaultPriority: 'bulk',
  steps: ['readDocumentPages', 'processDocumentChunk', 'processDocumentChunks', 'embedDocumentChunks', 'writeDocumentChunks', 'summarizeDocument'],
  result: DocumentResult,
  review: { kind: 'none' },
  webhook: { includesResult: true },
  reviewer: { title: 'Document', showsDocument: true, sections: [] },
  objects: { ownPrefix: (tenantId, jobId) => `${documentObjectPrefix(tenantId, jobId)}/` },
});
