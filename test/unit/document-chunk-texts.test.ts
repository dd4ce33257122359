import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ChunkTexts } from '../../activities/document/chunk-texts';
import { documentKeys } from '../../activities/document/document-keys';
import { memoryStore } from '../support/memory-store';

const PREFIX = 'documents/demo/job';
const TEXTS = ['The first chunk, about ledgers.', '', 'The third chunk, after a scanned page.'];

/** A store that counts its reads, to show which reads a worker makes. */
function countingStore() {
  const store = memoryStore();
  const reads: string[] = [];
  const getBytes = store.getBytes.bind(store);
  store.getBytes = (key) => {
    reads.push(key);
    return getBytes(key);
  };
  return { store, reads };
}

describe('a document’s chunk texts (activities/document/chunk-texts.ts)', () => {
  test('when readDocumentPages wrote the texts, then they are one object in S3 and its worker reads none of them back', async () => {
    const { store, reads } = countingStore();
    const texts = new ChunkTexts(store);
    const key = await texts.write(PREFIX, TEXTS);
    assert.equal(key, documentKeys.chunkTexts(PREFIX));
    assert.deepEqual(JSON.parse((store.objects.get(key) ?? Buffer.from('null')).toString('utf8')), TEXTS);
    assert.equal([...store.objects.keys()].length, 1);
    assert.equal(await texts.textOf({ prefix: PREFIX, index: 2, chunkTextsKey: key }), TEXTS[2]);
    assert.deepEqual(reads, []);
  });

  test('when another worker reads a document’s chunks, then it reads the texts object once for all of them', async () => {
    const { store, reads } = countingStore();
    const key = await new ChunkTexts(store).write(PREFIX, TEXTS);
    const other = new ChunkTexts(store);
    const read = await Promise.all(TEXTS.map((_, index) => other.textOf({ prefix: PREFIX, index, chunkTextsKey: key })));
    assert.deepEqual(read, TEXTS);
    assert.deepEqual(reads, [key]);
  });

  test('when a run stored a text per chunk (no key), then the chunk’s own object is read', async () => {
    const { store } = countingStore();
    await store.put(documentKeys.chunkText(PREFIX, 4), 'an older run’s chunk', { contentType: 'text/plain' });
    assert.equal(await new ChunkTexts(store).textOf({ prefix: PREFIX, index: 4 }), 'an older run’s chunk');
  });

  test('when the texts object cannot be read, then the failure is not kept and the next chunk reads it again', async () => {
    const { store, reads } = countingStore();
    const texts = new ChunkTexts(store);
    const key = documentKeys.chunkTexts(PREFIX);
    await assert.rejects(texts.textOf({ prefix: PREFIX, index: 0, chunkTextsKey: key }));
    await new ChunkTexts(store).write(PREFIX, TEXTS);
    assert.equal(await texts.textOf({ prefix: PREFIX, index: 0, chunkTextsKey: key }), TEXTS[0]);
    assert.deepEqual(reads, [key, key]);
  });

  test('when the texts object has no such chunk, then the step fails as an unreadable object, not retried', async () => {
    const { store } = countingStore();
    const key = await new ChunkTexts(store).write(PREFIX, TEXTS);
    await assert.rejects(new ChunkTexts(store).textOf({ prefix: PREFIX, index: 7, chunkTextsKey: key }), { name: 'StoredObjectUnreadableError' });
  });
});
