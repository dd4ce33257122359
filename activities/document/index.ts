import { type ActivityDeps, uploadsOf } from '../activity-deps';
import { ChunkTexts } from './chunk-texts';
import { createEmbedDocumentChunks } from './embed-document-chunks';
import { createProcessDocumentChunk } from './process-document-chunk';
import { createProcessDocumentChunks } from './process-document-chunks';
import { createReadDocumentPages } from './read-document-pages';
import { createSummarizeDocument } from './summarize-document';
import { createWriteDocumentChunks } from './write-document-chunks';

/** The `document` activities (workflows/document/): read the pages, summarise each chunk (alone, or a group's in one step), embed a group's chunks, write, summarise. */
export function createDocumentActivities(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'embeddings' | 'config' | 'batchLane' | 'providerFiles'>) {
  const { summarizeModel, ...settings } = deps.config.document;
  const lane = deps.batchLane ? { lane: deps.batchLane } : {};
  const texts = new ChunkTexts(deps.store);
  const processDocumentChunk = createProcessDocumentChunk({
    store: deps.store,
    gateway: deps.gateway,
    embeddings: deps.embeddings,
    summarizeModel,
    texts,
    ...lane,
    ...uploadsOf(deps),
  });
  return {
    readDocumentPages: createReadDocumentPages({ store: deps.store, settings, texts }),
    processDocumentChunk,
    processDocumentChunks: createProcessDocumentChunks(processDocumentChunk, deps.store),
    embedDocumentChunks: createEmbedDocumentChunks({
      store: deps.store,
      embeddings: deps.embeddings,
      limits: { maxInputs: deps.config.embeddings.maxInputsPerRequest, maxTokens: deps.config.embeddings.maxTokensPerRequest },
    }),
    writeDocumentChunks: createWriteDocumentChunks({ store: deps.store }),
    summarizeDocument: createSummarizeDocument({ store: deps.store, gateway: deps.gateway, summarizeModel, ...lane }),
  };
}

export type DocumentActivities = ReturnType<typeof createDocumentActivities>;
