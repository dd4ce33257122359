import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { batchIsFull, type BatchEntry, entriesForNextBatch, MAX_BATCH_BYTES } from '../../common/batch-lane';

const MB = 1024 * 1024;
const entries = (sizes: number[]): BatchEntry[] => sizes.map((requestBytes, index) => ({ customId: `c${index}`, replyTo: 'w', requestBytes }));
const settings = { collectWindowMs: 10_000, maxRequests: 100_000, pollIntervalMs: 30_000, maxBatchBytes: MAX_BATCH_BYTES };

describe('where the collector closes a batch', () => {
  test('when the waiting requests pass 200 MB, then the batch takes only those that fit and counts as full', () => {
    const waiting = entries([90 * MB, 90 * MB, 30 * MB, 1 * MB]);
    assert.equal(entriesForNextBatch(waiting, settings), 2);
    assert.equal(batchIsFull(waiting, settings), true);
    assert.ok(MAX_BATCH_BYTES < 256 * MB);
  });

  test('when they fit in bytes and count, then every one goes and the batch waits for its window', () => {
    const waiting = entries([90 * MB, 90 * MB, 1 * MB]);
    assert.equal(entriesForNextBatch(waiting, settings), 3);
    assert.equal(batchIsFull(waiting, settings), false);
  });

  test('when one request alone is past the limit, then it still goes alone (its submission fails and its job asks live)', () => {
    assert.equal(entriesForNextBatch(entries([300 * MB, 1 * MB]), settings), 1);
  });

  test('when the count limit comes first, or the collector predates the byte limit, then the count decides', () => {
    assert.equal(entriesForNextBatch(entries([1, 1, 1]), { ...settings, maxRequests: 2 }), 2);
    assert.equal(batchIsFull(entries([1, 1]), { ...settings, maxRequests: 2 }), true);
    const { maxBatchBytes: _none, ...older } = settings;
    assert.equal(entriesForNextBatch(entries([300 * MB, 300 * MB]), older), 2);
  });
});
