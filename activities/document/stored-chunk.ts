import type { Usage } from '../../common/job';
import type { ObjectStore } from '../../lib/object-store';
import type { ChunkRecord } from './contracts';
import { documentKeys } from './document-keys';

/**
 * A chunk's result as stored (documentKeys.chunkResult), with the bookkeeping the search index leaves out. A chunk
 * whose group embeds its chunks together (embed-document-chunks.ts) is stored first without its vector; the group's
 * embedding step adds it.
 */
export type StoredChunk = Omit<ChunkRecord, 'embedding' | 'embeddingModel'> &
  Partial<Pick<ChunkRecord, 'embedding' | 'embeddingModel'>> & {
    /** What the chunk's own step cost (its summary, and its embedding when it made one). */
    usage: Usage;
    /**
     * Set once the workflow holds the step's result (its group's embedding step ran after it): a rerun of the step
     * that finds this record then reports nothing again.
     */
    usageReported?: boolean;
    /** The cost of the embeddings request this chunk opened (the first of its inputs carries it), until reported. */
    embeddingUsage?: { usage: Usage; counted: boolean };
  };

export async function readStoredChunk(store: ObjectStore, prefix: string, index: number): Promise<StoredChunk> {
  return JSON.parse((await store.getBytes(documentKeys.chunkResult(prefix, index))).toString('utf8')) as StoredChunk;
}

export async function writeStoredChunk(store: ObjectStore, prefix: string, chunk: StoredChunk): Promise<void> {
  await store.put(documentKeys.chunkResult(prefix, chunk.index), JSON.stringify(chunk), { contentType: 'application/json' });
}
