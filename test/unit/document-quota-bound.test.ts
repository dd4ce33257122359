import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { demandBetween, quotaBound } from '../../bench/document/quota-bound';
import { loadConfig } from '../../lib/config';
import { localTestEnv } from '../support/test-credentials';

const config = loadConfig(localTestEnv({ GATEWAY_ITPM: '60000', GATEWAY_RPM: '600', EMBEDDINGS_TPM: '120000' }));
const demand = (inputTokens: number, requests: number, embeddingTokens: number) => ({
  messages: { requests, inputTokens, outputTokens: 0 },
  embeddings: { requests: 1, tokens: embeddingTokens },
});

describe('the document bench’s quota bound', () => {
  test('when input tokens set the pace, then the bound is input tokens over ITPM in seconds', () => {
    const bound = quotaBound(demand(30_000, 10, 1_000), config);
    assert.equal(bound.seconds, 30);
    assert.equal(bound.limitedBy, 'input tokens ÷ ITPM');
  });

  test('when requests or embedding tokens weigh more, then they set the bound instead', () => {
    assert.equal(quotaBound(demand(1_000, 300, 0), config).limitedBy, 'requests ÷ RPM');
    const embeddingBound = quotaBound(demand(1_000, 1, 240_000), config);
    assert.equal(embeddingBound.limitedBy, 'embedding tokens ÷ EMBEDDINGS_TPM');
    assert.equal(embeddingBound.seconds, 120);
  });

  test('when counters are read around a run, then the demand is their difference', () => {
    const before = { messages: { requests: 5, inputTokens: 100, outputTokens: 10 }, embeddings: { requests: 2, tokens: 50 } };
    const after = { messages: { requests: 9, inputTokens: 700, outputTokens: 40 }, embeddings: { requests: 3, tokens: 80 } };
    assert.deepEqual(demandBetween(before, after), { messages: { requests: 4, inputTokens: 600, outputTokens: 30 }, embeddings: { requests: 1, tokens: 30 } });
  });
});
