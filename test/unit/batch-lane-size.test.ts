import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { batchIsFull, type BatchEntry, entriesThatFit, MAX_BATCH_BYTES } from '../../common/batch-lane';

const MB = 1024 * 1024;
const entries = (sizes: number[]): BatchEntry[] => sizes.map((requestBytes, index) => ({ customId: `c${index}`, replyTo: 'w', requestBytes }));
const settings = { collectWindowMs: 10_000, maxRequests: 100_000, pollIntervalMs: 30_000, maxBatchBytes: MAX_BATCH_BYTES };
const empty = { entries: 0, bytes: 0 };

describe('where the collector closes a batch', () => {
  test('when the waiting requests pass 200 MB, then the batch takes only those that fit and counts as full', () => {
    const waiting = entries([90 * MB, 90 * MB, 30 * MB, 1 * MB]);
    assert.equal(entriesThatFit(empty, waiting, settings), 2);
    assert.equal(batchIsFull(empty, waiting, settings), true);
    assert.ok(MAX_BATCH_BYTES < 256 * MB);
  });

  test('when they fit in bytes and count, then every one goes and the batch waits for its window', () => {
    const waiting = entries([90 * MB, 90 * MB, 1 * MB]);
    assert.equal(entriesThatFit(empty, waiting, settings), 3);
    assert.equal(batchIsFull(empty, waiting, settings), false);
  });

  test('when one request alone is past the limit, then it still goes alone into an empty batch (its submission fails and its job asks live), and into no other', () => {
    assert.equal(entriesThatFit(empty, entries([300 * MB, 1 * MB]), settings), 1);
    assert.equal(entriesThatFit({ entries: 1, bytes: 1 * MB }, entries([300 * MB]), settings), 0);
  });

  test('when part of the batch is already in segments, then what it holds counts against both limits', () => {
    const held = { entries: 99_999, bytes: 150 * MB };
    assert.equal(entriesThatFit(held, entries([1, 1, 1]), settings), 1);
    assert.equal(batchIsFull(held, entries([1]), settings), true);
    assert.equal(entriesThatFit({ entries: 10, bytes: 150 * MB }, entries([40 * MB, 40 * MB]), settings), 1);
  });

  test('when the count limit comes first, or the collector predates the byte limit, then the count decides', () => {
    assert.equal(entriesThatFit(empty, entries([1, 1, 1]), { ...settings, maxRequests: 2 }), 2);
    assert.equal(batchIsFull(empty, entries([1, 1]), { ...settings, maxRequests: 2 }), true);
    const { maxBatchBytes: _none, ...older } = settings;
    assert.equal(entriesThatFit(empty, entries([300 * MB, 300 * MB]), older), 2);
  });
});
