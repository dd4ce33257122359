import { StoredObjectUnreadableError } from '../../common/errors';
import type { ObjectStore } from '../../lib/object-store';
import type { ChunkRecord } from './contracts';
import { documentKeys, mapBounded } from './document-keys';
import { readStoredChunk } from './stored-chunk';

const PARALLEL_GETS = 16;

/** Every chunk's stored result, in index order, without the usage bookkeeping. */
export async function readChunkRecords(store: ObjectStore, prefix: string, chunks: number): Promise<ChunkRecord[]> {
  const indexes = Array.from({ length: chunks }, (_, index) => index);
  return mapBounded(indexes, PARALLEL_GETS, async (index) => {
    const { usage: _usage, usageReported: _reported, embeddingUsage: _embeddingUsage, embedding, embeddingModel, ...record } =
      await readStoredChunk(store, prefix, index);
    // The workflow writes the index only after every chunk's group embedded it: a missing vector is a broken record.
    if (!embedding || embeddingModel === undefined) throw new StoredObjectUnreadableError(`chunk ${index} of ${prefix} has no embedding`);
    return { ...record, embedding, embeddingModel };
  });
}

/**
 * The records as writeDocumentChunks wrote them (one object, documentKeys.chunksJsonl) once it has, which the
 * workflow's reduce always comes after; else read chunk by chunk.
 */
export async function readWrittenChunkRecords(store: ObjectStore, prefix: string, chunks: number): Promise<ChunkRecord[]> {
  const key = documentKeys.chunksJsonl(prefix);
  if (!(await store.exists(key))) return readChunkRecords(store, prefix, chunks);
  const lines = (await store.getBytes(key)).toString('utf8').split('\n').filter((line) => line !== '');
  if (lines.length !== chunks) throw new StoredObjectUnreadableError(`${key} holds ${lines.length} chunks, not ${chunks}`);
  return lines.map((line) => JSON.parse(line) as ChunkRecord);
}
