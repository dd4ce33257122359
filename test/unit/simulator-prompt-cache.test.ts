import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Clock } from '../../local/simulator/clock';
import type { MessagesRequest } from '../../local/simulator/messages-request';
import { PromptCache, type PromptCacheSettings } from '../../local/simulator/prompt-cache';
import { countInputTokens } from '../../local/simulator/token-count';
import { DEFAULT_PRICES } from '../../lib/config/model-prices';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { type BudgetSettings, DEFAULT_POOL } from '../../gateway/budget/token-budget';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { costOf } from '../../gateway/pricing';
import { createLogger } from '../../lib/logger';
import { type RunningSimulator, startSimulator } from '../../local/simulator/server';
import { localTestConfig } from '../support/test-credentials';
import { gatewayTestCall } from '../support/gateway-calls';

class ManualClock implements Clock {
  constructor(private at = 1_000_000) {}
  now(): number {
    return this.at;
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

const SYSTEM = 'You read invoices. '.repeat(40);

function request(document: string, options: { markDocument?: boolean; toolChoice?: string } = {}): MessagesRequest {
  return {
    model: 'm',
    max_tokens: 100,
    tools: [{ name: 'record_invoice', input_schema: { type: 'object' } }, { name: 'classify_document', input_schema: { type: 'object' } }],
    tool_choice: { type: 'tool', name: options.toolChoice ?? 'record_invoice' },
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: document, ...(options.markDocument ? { cache_control: { type: 'ephemeral' } } : {}) },
          { type: 'text', text: 'Extract.' },
        ],
      },
    ],
  };
}

describe('the simulator’s prompt cache', () => {
  const settings: PromptCacheSettings = { cacheTtlMs: 300_000, cacheMaxEntries: 100, cacheMinTokens: 100 };

  function use(cache: PromptCache, body: MessagesRequest) {
    const lookup = cache.lookup(body);
    cache.commit(lookup);
    return lookup;
  }

  test('when a marked prefix repeats, then the first call writes it and the second reads it; the split adds up to the whole input', () => {
    const cache = new PromptCache(new ManualClock(), () => settings);
    const first = use(cache, request('Invoice A'));
    const second = use(cache, request('Invoice B'));
    assert.ok(first.cacheCreationInputTokens >= 100, `created ${first.cacheCreationInputTokens}`);
    assert.equal(first.cacheReadInputTokens, 0);
    assert.equal(second.cacheCreationInputTokens, 0);
    assert.equal(second.cacheReadInputTokens, first.cacheCreationInputTokens);
    for (const [lookup, document] of [[first, 'Invoice A'], [second, 'Invoice B']] as const) {
      const total = countInputTokens(request(document));
      assert.equal(lookup.inputTokens + lookup.cacheCreationInputTokens + lookup.cacheReadInputTokens, total);
    }
  });

  test('when the document is marked too, then a repeat reads the longer prefix, and a different tool_choice reads only up to the system', () => {
    const cache = new PromptCache(new ManualClock(), () => settings);
    const document = 'Invoice C, line after line. '.repeat(30);
    const first = use(cache, request(document, { markDocument: true }));
    const again = use(cache, request(document, { markDocument: true }));
    assert.equal(again.cacheReadInputTokens, first.cacheCreationInputTokens);
    const otherTool = use(cache, request(document, { markDocument: true, toolChoice: 'classify_document' }));
    assert.ok(otherTool.cacheReadInputTokens > 0 && otherTool.cacheReadInputTokens < again.cacheReadInputTokens);
    assert.ok(otherTool.cacheCreationInputTokens > 0);
  });

  test('when the lifetime passes without a read, then the prefix is written again; a read in time refreshes it', () => {
    const clock = new ManualClock();
    const cache = new PromptCache(clock, () => settings);
    use(cache, request('x'));
    clock.advance(200_000);
    assert.ok(use(cache, request('y')).cacheReadInputTokens > 0, 'read within 5 minutes');
    clock.advance(200_000);
    assert.ok(use(cache, request('z')).cacheReadInputTokens > 0, 'the read refreshed the lifetime');
    clock.advance(300_001);
    assert.equal(use(cache, request('w')).cacheReadInputTokens, 0);
  });

  test('when a prefix is shorter than the minimum or the cache is full, then it is not read later', () => {
    const short = new PromptCache(new ManualClock(), () => ({ ...settings, cacheMinTokens: 100_000 }));
    use(short, request('a'));
    assert.deepEqual([use(short, request('b')).cacheReadInputTokens, short.size], [0, 0]);
    const tiny = new PromptCache(new ManualClock(), () => ({ ...settings, cacheMaxEntries: 1 }));
    use(tiny, request('a', { markDocument: true }));
    assert.equal(tiny.size, 1);
  });
});

describe('a cached call through the gateway and the simulator', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, cacheMinTokens: 200 });
  });
  afterAll(async () => {
    await simulator?.close();
  });

  test('when the same prompt prefix is sent twice, then the second reports a cache read and costs less, exactly at the cache-read price', async () => {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    const gateway = createModelGateway({
      client: createAnthropicClient(config.anthropic),
      prices: config.anthropic.prices,
      log: createLogger('test', 'silent'),
    });
    const first = await gateway.callTool(gatewayTestCall('cache-one', 'interactive'));
    const second = await gateway.callTool(gatewayTestCall('cache-two', 'interactive'));
    assert.ok(first.usage.cacheCreationInputTokens >= 200, `wrote ${first.usage.cacheCreationInputTokens}`);
    assert.equal(second.usage.cacheReadInputTokens, first.usage.cacheCreationInputTokens);
    assert.equal(second.usage.cacheCreationInputTokens, 0);
    assert.ok(second.usage.costUsd < first.usage.costUsd);

    const price = DEFAULT_PRICES['claude-sonnet-4-6'];
    assert.ok(price?.cacheReadPerMTok !== undefined && price.cacheWritePerMTok !== undefined);
    const { inputTokens, outputTokens, cacheReadInputTokens } = second.usage;
    const expected = (inputTokens * 3 + outputTokens * 15 + cacheReadInputTokens * 0.3) / 1_000_000;
    assert.equal(second.usage.costUsd, expected);
    assert.equal(costOf(second.usage, { inputPerMTok: 3, outputPerMTok: 15 }), expected, 'list multipliers when a price omits them');
    const uncached = costOf({ inputTokens: inputTokens + cacheReadInputTokens, outputTokens }, price);
    assert.ok(second.usage.costUsd < uncached);
  });

  test('when a call reads the cache, then the budget is charged its fresh input and cache writes, not its cache reads', async () => {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    const settings: BudgetSettings = {
      pools: { [DEFAULT_POOL]: { inputTokensPerMinute: 100_000, outputTokensPerMinute: 100_000, requestsPerMinute: 1_000 } },
      interactiveShare: 0,
    };
    const now = 7_000_000;
    const budget = new InProcessBudget(settings, () => now);
    const gateway = createModelGateway({
      client: createAnthropicClient(config.anthropic),
      prices: config.anthropic.prices,
      log: createLogger('test', 'silent'),
      budget: { budget, settings },
      now: () => now,
    });
    const first = await gateway.callTool(gatewayTestCall('budget-one', 'interactive'));
    const second = await gateway.callTool(gatewayTestCall('budget-two', 'interactive'));
    assert.ok(second.usage.cacheReadInputTokens > 0);
    const charged = [first, second].reduce(
      (sum, call) => sum + call.usage.inputTokens + call.usage.cacheCreationInputTokens,
      0,
    );
    assert.equal(budget.snapshot(DEFAULT_POOL).shared.input, 100_000 - charged);
  });
});
