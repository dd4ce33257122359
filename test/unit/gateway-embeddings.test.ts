import assert from '../support/assert';
import { afterEach, beforeEach, describe, test } from '@jest/globals';
import { ModelRateLimitedError, TokenBudgetExhaustedError } from '../../common/errors';
import type { GatewayEvent } from '../../gateway/gateway-events';
import { gatewayFromConfig, type WiredGateway } from '../../gateway/gateway-from-config';
import { recordGatewayEvents } from '../../gateway/gateway-metrics';
import { createLogger } from '../../lib/logger';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { Registry } from 'prom-client';
import { localTestConfig } from '../support/test-credentials';

const LOG = createLogger('gateway-embeddings-test', 'silent');
const PRICE = 0.06;

describe('the embeddings provider behind the gateway', () => {
  let simulator: RunningSimulator;
  let wired: WiredGateway;
  let events: GatewayEvent[];
  const wire = (env: Record<string, string>) => {
    wired = gatewayFromConfig(
      localTestConfig({ EMBEDDINGS_BASE_URL: simulator.url, EMBEDDINGS_DIMENSION: '256', EMBEDDINGS_PRICE_PER_MTOK: String(PRICE), ...env }),
      LOG,
    );
    events = [];
    wired.embeddings.events.subscribe((event) => events.push(event));
  };
  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, embedLatencyBaseMs: 0, embedLatencyPerThousandTokensMs: 0 });
  });
  afterEach(async () => {
    await wired?.close();
    await simulator.close();
  });

  const embed = (inputs: string[]) => wired.embeddings.embed({ jobId: 'job-1', priority: 'bulk', inputs, inputType: 'document' });

  test('when a chunk is embedded, then its vector comes back with the billed tokens priced at the embeddings price', async () => {
    wire({});
    const result = await embed(['x'.repeat(4000)]);
    assert.equal(result.vectors.length, 1);
    assert.equal(result.vectors[0]?.length, 256);
    assert.equal(result.model, 'voyage-3.5');
    assert.deepEqual(result.usage, { inputTokens: 1000, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: (1000 * PRICE) / 1e6 });
    const call = events.find((event) => event.type === 'call');
    assert.deepEqual(call?.type === 'call' ? [call.model, call.pool, call.status, call.inputTokens] : undefined, ['voyage-3.5', 'voyage-3.5', 200, 1000]);
  });

  test('when the embeddings budget is spent, then the call is held back before it leaves, and the Messages API budget is untouched', async () => {
    wire({ EMBEDDINGS_TPM: '2000', GATEWAY_INTERACTIVE_SHARE: '0' });
    await embed(['x'.repeat(6000)]); // 1,500 of 2,000 tokens a minute (the estimate learned from the answer)
    await assert.rejects(embed(['y'.repeat(6000)]), (error: unknown) => error instanceof TokenBudgetExhaustedError);
    const stats = (await (await fetch(`${simulator.url}/_sim/embeddings/stats`)).json()) as { requests: number };
    assert.equal(stats.requests, 1);
    assert.ok(events.some((event) => event.type === 'denied' && event.pool === 'voyage-3.5'));
    const messagesBudget = await wired.budget?.wait('*', 'bulk', { input: 100_000, output: 1_000, requests: 1 });
    assert.deepEqual(messagesBudget, { waitMs: 0 });
  });

  test('when the provider answers 429, then the error carries its retry-after and the fleet pauses embeddings', async () => {
    await fetch(`${simulator.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ embedTokensPerMinute: 100 }) });
    wire({ GATEWAY_BUDGET: 'off' });
    await embed(['x'.repeat(360)]);
    const error = await embed(['x'.repeat(360)]).catch((caught: unknown) => caught);
    assert.ok(error instanceof ModelRateLimitedError, String(error));
    assert.ok((error as ModelRateLimitedError).retryAfterMs! >= 1000);
    assert.ok(events.some((event) => event.type === 'call' && event.status === 429));
  });

  test('when the provider says the request itself is wrong, then the error is not retryable', async () => {
    wire({ EMBEDDINGS_BASE_URL: `${simulator.url}/missing-prefix` });
    const error = await embed(['x']).catch((caught: unknown) => caught);
    // The simulator answers an unknown path with 404: the request itself is wrong, retrying cannot help.
    assert.equal((error as Error).name, 'ModelRequestInvalidError');
    assert.ok(!(error instanceof ModelRateLimitedError));
  });

  test('when metrics record both providers, then embeddings calls are counted under their model', async () => {
    wire({});
    const registry = new Registry();
    recordGatewayEvents(registry, wired.gateway.events, wired.embeddings.events);
    await embed(['hello world']);
    const metrics = await registry.getMetricsAsJSON();
    const calls = metrics.find((metric) => metric.name === 'slowlane_model_calls_total');
    assert.ok(calls?.values.some((value) => value.labels.model === 'voyage-3.5' && value.labels.status === '200' && value.value === 1));
  });
});
