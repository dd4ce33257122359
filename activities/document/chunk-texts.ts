import { StoredObjectUnreadableError } from '../../common/errors';
import type { ObjectStore } from '../../lib/object-store';
import { documentKeys } from './document-keys';

/** Documents whose chunk texts a worker keeps: a few fan-outs at once, each a few megabytes at most. */
const KEPT_DOCUMENTS = 8;

/**
 * Where a chunk's text is read from: the document's one texts object (documentKeys.chunkTexts), or, for runs whose
 * readDocumentPages stored a text per chunk, that chunk's own object.
 */
export interface ChunkTextRef {
  prefix: string;
  index: number;
  chunkTextsKey?: string;
}

/**
 * The chunk texts of the documents this worker fans out, read once per worker instead of once per chunk. The texts
 * object is written once by readDocumentPages and never changed (a retry writes the same texts), so a kept copy
 * cannot go stale. The oldest document is dropped past KEPT_DOCUMENTS; a failed read is not kept.
 */
export class ChunkTexts {
  private readonly kept = new Map<string, Promise<readonly string[]>>();

  constructor(private readonly store: ObjectStore) {}

  /** Stores every chunk's text as one object and keeps it, so this worker's chunk steps need not read it back. */
  async write(prefix: string, texts: readonly string[]): Promise<string> {
    const key = documentKeys.chunkTexts(prefix);
    await this.store.put(key, JSON.stringify(texts), { contentType: 'application/json' });
    this.keep(key, Promise.resolve(texts));
    return key;
  }

  async textOf(chunk: ChunkTextRef): Promise<string> {
    if (chunk.chunkTextsKey === undefined) {
      return (await this.store.getBytes(documentKeys.chunkText(chunk.prefix, chunk.index))).toString('utf8');
    }
    const texts = await this.all(chunk.chunkTextsKey);
    const text = texts[chunk.index];
    if (text === undefined) throw new StoredObjectUnreadableError(`${chunk.chunkTextsKey} has no chunk ${chunk.index}`);
    return text;
  }

  private all(key: string): Promise<readonly string[]> {
    const kept = this.kept.get(key);
    if (kept) return kept;
    const reading = this.store.getBytes(key).then((bytes) => JSON.parse(bytes.toString('utf8')) as string[]);
    this.keep(key, reading);
    reading.catch(() => {
      if (this.kept.get(key) === reading) this.kept.delete(key);
    });
    return reading;
  }

  private keep(key: string, texts: Promise<readonly string[]>): void {
    this.kept.delete(key);
    this.kept.set(key, texts);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_DOCUMENTS) break;
      this.kept.delete(oldest);
    }
  }
}
