import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ContentRefusedError, ModelUnavailableError, TenantSpendCapReachedError } from '../../common/errors';
import type { EmbeddingsGateway, EmbedRequest, EmbedResult } from '../../gateway/embeddings/embeddings-call';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import { withEmbeddingsSpendCaps } from '../../gateway/spend/spend-capped-embeddings';
import { withSpendCaps } from '../../gateway/spend/spend-capped-gateway';
import { createTenantSpend, type SpendEvent } from '../../gateway/spend/tenant-spend';
import { modelProvider, toolRequest } from '../support/spend-fakes';

const NOW = Date.UTC(2026, 11, 4, 12);
const EMBEDDINGS_MODEL = 'voyage-3.5';

/** The shared admit/settle over a real in-process store, with its events kept. */
function tenantSpend(caps: Record<string, { dailyUsd?: number; monthlyUsd?: number }>) {
  const events: SpendEvent[] = [];
  const store = new InProcessSpendStore(() => NOW);
  const spend = createTenantSpend({ store, caps, onEvent: (event) => events.push(event) });
  return { spend, store, events };
}

/** An embeddings provider that bills `tokens` per call and counts the calls that reached it. */
function embeddingsProvider(tokens: number, pricePerMTok: number): EmbeddingsGateway & { calls: number } {
  const fake = {
    calls: 0,
    async embed(request: EmbedRequest): Promise<EmbedResult> {
      fake.calls += 1;
      return {
        vectors: request.inputs.map(() => [0.1, 0.2]),
        model: EMBEDDINGS_MODEL,
        usage: {
          inputTokens: tokens,
          outputTokens: 0,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: 0,
          costUsd: (tokens * pricePerMTok) / 1_000_000,
        },
      };
    },
  };
  return fake;
}

const embedRequest = (tenantId?: string): EmbedRequest => ({
  jobId: 'document:demo:k',
  ...(tenantId ? { tenantId } : {}),
  priority: 'bulk',
  inputs: ['x'.repeat(3500)],
  inputType: 'document',
});

describe('the shared admit and settle of a tenant’s spend', () => {
  test('when a call is admitted, then its real cost is what the store counts, not the most it could have cost', async () => {
    const { spend, store } = tenantSpend({ demo: { dailyUsd: 10 } });
    const answer = await spend.spend('demo', { mostItCosts: () => 4, run: async () => 'answer', costOf: () => 0.25 });
    assert.equal(answer, 'answer');
    // A call whose hold would pass the cap had the first hold not been settled to 0.25.
    const hold = await store.hold('demo', { dailyUsd: 10 }, 9.7);
    assert.equal(hold.granted, true);
  });

  test('when the most a call can cost would pass the cap, then it never runs and the refusal says when the day turns', async () => {
    const { spend, events } = tenantSpend({ demo: { dailyUsd: 1 } });
    await spend.spend('demo', { mostItCosts: () => 0.5, run: async () => undefined, costOf: () => 0.9 });
    let ran = false;
    const refusal = await spend
      .spend('demo', { mostItCosts: () => 0.5, run: async () => (ran = true), costOf: () => 0 })
      .catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.equal(ran, false);
    assert.deepEqual(refusal.details?.spendCap, { window: 'day', capUsd: 1, spentUsd: 0.9, resumesAt: '2026-12-05T00:00:00.000Z' });
    assert.deepEqual(events.at(-1), { type: 'refused', tenantId: 'demo', window: 'day', capUsd: 1, spentUsd: 0.9 });
  });

  test('when a call fails but the provider billed it, then the billed cost is counted; when it failed unbilled, nothing is', async () => {
    const { spend, events } = tenantSpend({ demo: { dailyUsd: 10 } });
    const refused = new ContentRefusedError('declined', { details: { billedUsage: { inputTokens: 10, outputTokens: 1, costUsd: 0.3, calls: 1 } } });
    await spend.spend('demo', { mostItCosts: () => 1, run: () => Promise.reject(refused), costOf: () => 0 }).catch(() => undefined);
    const unreachable = new ModelUnavailableError('connection refused');
    await spend.spend('demo', { mostItCosts: () => 1, run: () => Promise.reject(unreachable), costOf: () => 0 }).catch(() => undefined);
    const spent = events.filter((event) => event.type === 'spent');
    assert.deepEqual(
      spent.map((event) => event.costUsd),
      [0.3, 0],
    );
    assert.deepEqual(spent.at(-1), {
      type: 'spent',
      tenantId: 'demo',
      costUsd: 0,
      totals: { day: 0.3, month: 0.3 },
    });
  });

  test('when a tenant has no cap, then its call is held at its estimate all the same and its spend counted', async () => {
    const { spend, store, events } = tenantSpend({});
    let heldDuringCall = -1;
    const day = new Date(NOW).toISOString().slice(0, 10);
    await spend.spend('free', { mostItCosts: () => 1, run: async () => (heldDuringCall = (await store.totalsOn('free', day)).held), costOf: () => 2 });
    assert.equal(heldDuringCall, 1, 'held, so a worker dying before the settle still leaves it counted');
    assert.deepEqual(events, [{ type: 'spent', tenantId: 'free', costUsd: 2, totals: { day: 2, month: 2 } }]);
  });
});

describe('the embeddings gateway behind spend caps', () => {
  const pricePerMTok = 100;

  test('when a tenant’s embeddings have spent its cap, then its next embedding is refused before the provider', async () => {
    const { spend } = tenantSpend({ demo: { dailyUsd: 0.15 } });
    // 1,000 tokens at 100 USD per million: 0.1 USD a call.
    const provider = embeddingsProvider(1000, pricePerMTok);
    const embeddings = withEmbeddingsSpendCaps(provider, { spend, model: EMBEDDINGS_MODEL, pricePerMTok });
    const first = await embeddings.embed(embedRequest('demo'));
    assert.equal(first.vectors.length, 1);
    const refusal = await embeddings.embed(embedRequest('demo')).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.equal(provider.calls, 1, 'the refused embedding never went out');
  });

  test('when model calls have spent the tenant’s cap, then its embeddings wait too: one store, one cap for every door', async () => {
    const { spend } = tenantSpend({ demo: { dailyUsd: 1 } });
    const model = withSpendCaps(modelProvider(1), { spend, prices: { 'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 } } });
    const provider = embeddingsProvider(1000, pricePerMTok);
    const embeddings = withEmbeddingsSpendCaps(provider, { spend, model: EMBEDDINGS_MODEL, pricePerMTok });
    await model.callTool(toolRequest('demo'));
    const refusal = await embeddings.embed(embedRequest('demo')).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.equal(provider.calls, 0);
    // Another tenant is not held back by demo's spend.
    await embeddings.embed(embedRequest('other'));
    assert.equal(provider.calls, 1);
  });

  test('when an embedding names no tenant, then it goes out uncounted', async () => {
    const { spend, events } = tenantSpend({ demo: { dailyUsd: 0.01 } });
    const provider = embeddingsProvider(1000, pricePerMTok);
    const embeddings = withEmbeddingsSpendCaps(provider, { spend, model: EMBEDDINGS_MODEL, pricePerMTok });
    await embeddings.embed(embedRequest());
    await embeddings.embed(embedRequest());
    assert.equal(provider.calls, 2);
    assert.deepEqual(events, []);
  });
});
