import type { ObjectStore } from '../../lib/object-store';
import type { ChunkRecord } from './document-contracts';
import { documentKeys, mapBounded } from './document-keys';

const PARALLEL_GETS = 16;

/** Every chunk's stored result, in index order, without the usage bookkeeping. */
export async function readChunkRecords(store: ObjectStore, prefix: string, chunks: number): Promise<ChunkRecord[]> {
  const indexes = Array.from({ length: chunks }, (_, index) => index);
  return mapBounded(indexes, PARALLEL_GETS, async (index) => {
    const stored = JSON.parse((await store.getBytes(documentKeys.chunkResult(prefix, index))).toString('utf8')) as ChunkRecord & {
      usage?: unknown;
    };
    const { usage: _usage, ...record } = stored;
    return record;
  });
}
