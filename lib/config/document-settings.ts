import { setting, type SettingsArea } from '../settings/setting';
import { int, text } from '../settings/setting-types';

/** The `document` job type: a long PDF read per page, chunked, embedded and summarised (docs/job-types.md). */
export const documentArea = {
  title: 'Document jobs',
  settings: {
    maxPages: setting({
      env: 'DOCUMENT_MAX_PAGES',
      type: int({ min: 1, max: 10_000 }),
      default: '500',
      doc: 'pages a document may have; past it the API answers 413 too_many_pages at submission (the worker applies it too)',
    }),
    chunkTokens: setting({
      env: 'DOCUMENT_CHUNK_TOKENS',
      type: int({ min: 50, max: 30_000 }),
      default: '800',
      doc: 'tokens per chunk (about 4 characters each); a chunk is embedded and summarised on its own',
    }),
    chunksPerGroup: setting({
      env: 'DOCUMENT_CHUNKS_PER_GROUP',
      type: int({ min: 1, max: 200 }),
      default: '32',
      doc: 'chunks per child workflow (raised by itself when a document would need more than 100 groups)',
    }),
    parallelGroups: setting({
      env: 'DOCUMENT_PARALLEL_GROUPS',
      type: int({ min: 1, max: 100 }),
      default: '16',
      doc: 'child workflows of one document running at once',
    }),
    parallelChunks: setting({
      env: 'DOCUMENT_PARALLEL_CHUNKS',
      type: int({ min: 1, max: 100 }),
      default: '16',
      doc: 'chunks of one group processed at once',
    }),
    summarizeModel: setting({
      env: 'MODEL_SUMMARIZE',
      type: text(),
      default: 'claude-haiku-4-5',
      doc: 'model for the chunk summaries and the summary of the whole document',
    }),
  },
} satisfies SettingsArea;
