import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import { ApplicationFailure } from '@temporalio/common';
import { NON_RETRYABLE_ERROR_TYPES, TokenBudgetExhaustedError } from '../../common/errors';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { type BudgetSettings, DEFAULT_POOL } from '../../gateway/budget/token-budget';
import type { GatewayEvent } from '../../gateway/gateway-events';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { costOf } from '../../gateway/pricing';
import { toApplicationFailure } from '../../lib/failures';
import { createLogger } from '../../lib/logger';
import { type RunningSimulator, startSimulator } from '../../local/simulator/server';
import { gatewayTestCall } from '../support/gateway-calls';

const SETTINGS: BudgetSettings = {
  pools: { [DEFAULT_POOL]: { inputTokensPerMinute: 1_200, outputTokensPerMinute: 100_000, requestsPerMinute: 1_000 } },
  interactiveShare: 0.25,
};

describe('the model gateway with a token budget', () => {
  let simulator: RunningSimulator;
  let now = 5_000_000;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
  });
  afterAll(async () => {
    await simulator?.close();
  });

  function gateway() {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    const budget = new InProcessBudget(SETTINGS, () => now);
    const events: GatewayEvent[] = [];
    const wired = createModelGateway({
      client: createAnthropicClient(config.anthropic),
      prices: config.anthropic.prices,
      log: createLogger('test', 'silent'),
      budget: { budget, settings: SETTINGS },
      now: () => now,
      random: () => 0,
    });
    wired.events.subscribe((event) => events.push(event));
    return { wired, budget, events, prices: config.anthropic.prices };
  }

  async function providerCalls(): Promise<number> {
    const response = await fetch(`${simulator.url}/_sim/calls`);
    return ((await response.json()) as { calls: unknown[] }).calls.length;
  }

  test('when a call is answered, then the budget keeps only the tokens the provider billed', async () => {
    const { wired, budget } = gateway();
    const result = await wired.callTool(gatewayTestCall('settle', 'interactive'));
    const state = budget.snapshot(DEFAULT_POOL);
    assert.equal(state.reserve.input + state.shared.input, 1_200 - result.usage.inputTokens);
    assert.equal(state.reserve.output + state.shared.output, 100_000 - result.usage.outputTokens);
  });

  test('when the budget cannot cover a call, then it fails retryably after the time until tokens exist, and the provider never sees it', async () => {
    const { wired } = gateway();
    await wired.callTool(gatewayTestCall('first', 'bulk'));
    const before = await providerCalls();
    const error = await wired.callTool(gatewayTestCall('second', 'bulk')).then(
      () => assert.fail('the second call should not fit in 900 bulk tokens a minute'),
      (rejected: unknown) => rejected,
    );
    assert.ok(error instanceof TokenBudgetExhaustedError, String(error));
    assert.ok(!NON_RETRYABLE_ERROR_TYPES.includes(error.name));
    assert.equal(await providerCalls(), before, 'the refused call never left');
    // The bulk share is 900 tokens a minute and the call needs a few hundred more than are left: seconds, not 0.
    assert.ok((error.retryAfterMs ?? 0) > 1_000, `retryAfterMs ${error.retryAfterMs}`);

    const failure = toApplicationFailure(error, 1);
    assert.ok(failure instanceof ApplicationFailure);
    assert.equal(failure.type, 'TokenBudgetExhaustedError');
    assert.equal(failure.nonRetryable, false);
    assert.equal(failure.nextRetryDelay, error.retryAfterMs);

    now += error.retryAfterMs ?? 0;
    const retried = await wired.callTool(gatewayTestCall('second', 'bulk'));
    assert.ok(retried.usage.inputTokens > 0, 'after the wait the same call fits');
  });

  test('when calls go out, then listeners hear the reservation, the refusal and each call with its tokens and cost', async () => {
    const { wired, events, prices } = gateway();
    const result = await wired.callTool(gatewayTestCall('events', 'bulk'));
    await wired.callTool(gatewayTestCall('events-2', 'bulk')).catch(() => undefined);
    assert.deepEqual(
      events.map((event) => event.type),
      ['reserved', 'call', 'denied'],
    );
    const call = events.find((event) => event.type === 'call');
    assert.ok(call && call.type === 'call');
    assert.equal(call.status, 200);
    assert.equal(call.inputTokens, result.usage.inputTokens);
    assert.equal(call.costUsd, costOf(result.usage, prices['claude-sonnet-4-6']));
    assert.equal(call.reserved.output, 4_096, 'max_tokens is what the output budget holds while the call runs');
  });
});
