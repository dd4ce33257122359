import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { packEmbeddingRequests } from '../../activities/document/pack-embedding-requests';
import { ModelRequestInvalidError } from '../../common/errors';

const inputs = (tokens: number[]) => tokens.map((count, key) => ({ key, tokens: count }));

describe('packEmbeddingRequests', () => {
  test('when inputs are small, then a request takes up to the most inputs a request may carry, in order', () => {
    const requests = packEmbeddingRequests(inputs(Array.from({ length: 7 }, () => 10)), { maxInputs: 3, maxTokens: 1_000 });
    assert.deepEqual(requests, [[0, 1, 2], [3, 4, 5], [6]]);
  });

  test('when inputs are large, then a request closes before the input that would pass the token limit', () => {
    const requests = packEmbeddingRequests(inputs([400, 500, 100, 1, 700, 300]), { maxInputs: 1_000, maxTokens: 1_000 });
    assert.deepEqual(requests, [[0, 1, 2], [3, 4], [5]]);
    // Every request stays within the limit, and each input is sent exactly once.
    const tokens = [400, 500, 100, 1, 700, 300];
    for (const request of requests) assert.ok(request.reduce((sum, key) => sum + (tokens[key] ?? 0), 0) <= 1_000);
    assert.deepEqual(requests.flat(), [0, 1, 2, 3, 4, 5]);
  });

  test('when an input fills a request alone, then it goes alone', () => {
    assert.deepEqual(packEmbeddingRequests(inputs([5, 1_000, 5]), { maxInputs: 10, maxTokens: 1_000 }), [[0], [1], [2]]);
  });

  test('when one input alone passes the token limit, then nothing is sent and the step fails for good naming it', () => {
    assert.throws(
      () => packEmbeddingRequests(inputs([10, 1_001, 10]), { maxInputs: 10, maxTokens: 1_000 }),
      (error: unknown) => error instanceof ModelRequestInvalidError && /1001 tokens/.test(error.message) && error.details?.input === '1',
    );
  });

  test('when there is nothing to embed, then there is no request', () => {
    assert.deepEqual(packEmbeddingRequests([], { maxInputs: 10, maxTokens: 1_000 }), []);
  });
});
