import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { chunkDocumentPages, chunkPages, estimateTokens } from '../../activities/document/chunk-pages';
import { readPages } from '../../activities/read-upload';
import { mixedPdfOf } from '../support/scans';
import { describeChunk, MAX_CHUNK_GROUPS, planChunkGroups } from '../../common/job-types/document/chunk-groups';

const words = (count: number, word = 'lorem') => Array.from({ length: count }, () => word).join(' ');

describe('chunkPages', () => {
  test('when pages hold more than a chunk, then every chunk stays within the target and no word is lost or split', () => {
    const pages = [words(300, 'alpha'), words(50, 'beta'), '', words(400, 'gamma')];
    const chunks = chunkPages(pages, 100);
    for (const chunk of chunks) assert.ok(chunk.tokens <= 100, `chunk ${chunk.index} has ${chunk.tokens} tokens`);
    const rejoined = chunks.flatMap((chunk) => chunk.text.split(/\s+/));
    assert.deepEqual(rejoined, pages.flatMap((page) => page.split(/\s+/).filter(Boolean)));
    assert.deepEqual(
      chunks.map((chunk) => chunk.index),
      chunks.map((_, index) => index),
    );
  });

  test('when a chunk crosses pages, then its page range covers exactly the pages its words came from', () => {
    // 10 words of 5 letters a page (~15 tokens); chunks of 20 tokens (80 characters) span page breaks.
    const pages = Array.from({ length: 6 }, (_, page) => words(10, `p${page + 1}xyz`));
    const chunks = chunkPages(pages, 20);
    for (const chunk of chunks) {
      const pagesSeen = [...new Set(chunk.text.split(/\s+/).map((word) => Number(/^p(\d+)/.exec(word)?.[1])))];
      assert.equal(chunk.firstPage, Math.min(...pagesSeen));
      assert.equal(chunk.lastPage, Math.max(...pagesSeen));
    }
    assert.equal(chunks[0]?.firstPage, 1);
    assert.equal(chunks.at(-1)?.lastPage, 6);
    assert.ok(chunks.some((chunk) => chunk.firstPage !== chunk.lastPage));
  });

  test('when a page is empty or blank, then it yields no chunk, and a document without words yields none', () => {
    assert.deepEqual(chunkPages(['', '  \n ', ''], 50), []);
    const chunks = chunkPages(['', 'only words here', ''], 50);
    assert.equal(chunks.length, 1);
    assert.deepEqual([chunks[0]?.firstPage, chunks[0]?.lastPage], [2, 2]);
  });

  test('when counting tokens, then it is ceil(characters / 4), as the simulator counts', () => {
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.throws(() => chunkPages(['x'], 0), RangeError);
  });
});

describe('planChunkGroups', () => {
  test('when chunks are few, then groups have the configured size, in order', () => {
    assert.deepEqual(planChunkGroups([0, 1, 2, 3, 4, 5, 6], 3), [[0, 1, 2], [3, 4, 5], [6]]);
    assert.deepEqual(planChunkGroups([2, 9], 8), [[2, 9]]);
  });

  test('when chunks would need more than the cap, then groups grow so there are at most that many', () => {
    const chunks = Array.from({ length: 5 * MAX_CHUNK_GROUPS + 1 }, (_, index) => index);
    const groups = planChunkGroups(chunks, 2);
    assert.ok(groups.length <= MAX_CHUNK_GROUPS);
    assert.deepEqual(groups.flat(), chunks);
  });

  test('when naming a chunk, then its page or page range is given', () => {
    assert.equal(describeChunk(3, { firstPage: 7, lastPage: 7 }), 'chunk 3 (page 7)');
    assert.equal(describeChunk(4, { firstPage: 7, lastPage: 9 }), 'chunk 4 (pages 7–9)');
    assert.equal(describeChunk(5, undefined), 'chunk 5');
  });
});

describe('a document with scanned pages', () => {
  test('when pages 3 and 4 are scans, then each is a chunk of its own between the text chunks, in page order', () => {
    const pages = [words(30, 'one'), words(30, 'two'), '', '', words(30, 'five')];
    const chunks = chunkDocumentPages(pages, new Set([3, 4]), 1000);
    assert.deepEqual(
      chunks.map((chunk) => [chunk.index, chunk.firstPage, chunk.lastPage, chunk.scanned ?? false]),
      [
        [0, 1, 2, false],
        [1, 3, 3, true],
        [2, 4, 4, true],
        [3, 5, 5, false],
      ],
    );
    // No text chunk spans a scan, and the text chunks hold every word.
    assert.deepEqual(chunks.filter((chunk) => !chunk.scanned).map((chunk) => chunk.text), [`${pages[0]}\n${pages[1]}`, pages[4]]);
  });

  test('when no page is a scan, then the chunks are chunkPages\'s', () => {
    const pages = [words(300, 'alpha'), words(50, 'beta'), '', words(400, 'gamma')];
    assert.deepEqual(chunkDocumentPages(pages, new Set(), 100), chunkPages(pages, 100));
  });

  test('when a PDF mixes text, scanned and blank pages, then the scans are the text-less pages that paint an image', async () => {
    const pdf = await mixedPdfOf(['text', 'scan', 'blank', 'text', 'scan']);
    const { texts, scannedPages } = await readPages(pdf, 'application/pdf', 10);
    assert.equal(texts.length, 5);
    assert.deepEqual(scannedPages, [2, 5]);
    assert.match(texts[3] ?? '', /Page 4 holds/);
  });
});
