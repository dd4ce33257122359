import { Readable } from 'node:stream';
import type { ObjectStore } from '../../lib/object-store';

/** S3 as a map, every operation the product uses, so a test can look at (and fault) the objects it left. */
export interface MemoryStore extends ObjectStore {
  objects: Map<string, Buffer>;
  /** Throws `error` from the next put whose key matches, once: a worker that died at that point. */
  failNextPut(match: (key: string) => boolean, error?: Error): void;
}

export function memoryStore(): MemoryStore {
  const objects = new Map<string, Buffer>();
  const faults: Array<{ match: (key: string) => boolean; error: Error }> = [];
  const store: MemoryStore = {
    bucket: 'memory',
    objects,
    failNextPut(match, error = new Error('the worker died here (injected)')) {
      faults.push({ match, error });
    },
    async put(key, body) {
      const fault = faults.findIndex((candidate) => candidate.match(key));
      if (fault >= 0) throw faults.splice(fault, 1)[0]?.error;
      objects.set(key, Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : ''));
    },
    async getBytes(key) {
      const bytes = objects.get(key);
      if (!bytes) throw new Error(`no object ${key}`);
      return bytes;
    },
    async open(key) {
      return { body: Readable.from(await store.getBytes(key)) };
    },
    async exists(key) {
      return objects.has(key);
    },
    async *list(prefix, options = {}) {
      const after = options.startAfter;
      for (const key of [...objects.keys()].sort()) if (key.startsWith(prefix) && (after === undefined || key > after)) yield key;
    },
    async deleteMany(keys) {
      for (const key of keys) objects.delete(key);
    },
    async ensureBucket() {},
  };
  return store;
}
