import { StoredObjectUnreadableError } from '../../common/errors';
import type { ObjectStore } from '../../lib/object-store';
import type { ChunkRecord } from './contracts';
import { mapBounded } from './document-keys';
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
