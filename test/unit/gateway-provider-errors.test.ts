import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import {
  ModelRateLimitedError,
  ModelRequestInvalidError,
  ModelUnavailableError,
  NON_RETRYABLE_ERROR_TYPES,
  type SlowlaneError,
  SpendLimitReachedError,
} from '../../common/errors';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { retryAfterMs } from '../../gateway/provider-errors';
import { createLogger } from '../../lib/logger';
import { type RunningSimulator, startSimulator } from '../../local/simulator/server';
import { gatewayTestCall } from '../support/gateway-calls';

/** The gateway without a budget, so every call reaches the provider (here the simulator, or nothing at `baseURL`). */
function gatewayTo(baseURL: string) {
  const config = localTestConfig({ ANTHROPIC_BASE_URL: baseURL });
  return createModelGateway({
    client: createAnthropicClient(config.anthropic),
    prices: config.anthropic.prices,
    log: createLogger('test', 'silent'),
  });
}

async function rejection(call: Promise<unknown>): Promise<SlowlaneError> {
  const error = await call.then(
    () => assert.fail('the call should have failed'),
    (rejected: unknown) => rejected,
  );
  assert.ok(error instanceof Error, String(error));
  return error as SlowlaneError;
}

describe('what a failed model call means for the retry (SDK errors through the gateway)', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
  });
  afterAll(async () => {
    await simulator?.close();
  });

  /** The error the gateway throws when the provider answers this call with the injected fault. */
  async function failureFor(fault: { kind: string; retryAfterSeconds?: number }): Promise<SlowlaneError> {
    const marker = `fault-${randomUUID()}`;
    const response = await fetch(`${simulator.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { textIncludes: marker }, fault, times: 1 }),
    });
    assert.equal(response.status, 201, await response.text());
    return rejection(gatewayTo(simulator.url).callTool(gatewayTestCall(marker, 'interactive')));
  }

  test('when the provider answers 429 with retry-after, then it is a rate limit retried after that delay', async () => {
    const error = await failureFor({ kind: 'rate_limit', retryAfterSeconds: 7 });
    assert.ok(error instanceof ModelRateLimitedError, String(error));
    assert.equal(error.retryAfterMs, 7_000);
  });

  test('when a 429 says the spend limit is reached, then it is not retried', async () => {
    const error = await failureFor({ kind: 'spend_limit' });
    assert.ok(error instanceof SpendLimitReachedError, String(error));
    assert.ok(NON_RETRYABLE_ERROR_TYPES.includes(error.name));
  });

  test('when the provider is overloaded or fails, then the call is retried, after its retry-after when it sent one', async () => {
    const overloaded = await failureFor({ kind: 'overloaded', retryAfterSeconds: 2 });
    assert.ok(overloaded instanceof ModelUnavailableError, String(overloaded));
    assert.equal(overloaded.retryAfterMs, 2_000);
    const failed = await failureFor({ kind: 'server_error' });
    assert.ok(failed instanceof ModelUnavailableError, String(failed));
    assert.ok(!NON_RETRYABLE_ERROR_TYPES.includes(failed.name));
  });

  test('when the provider rejects the request itself, then retrying cannot help', async () => {
    const error = await failureFor({ kind: 'invalid_request' });
    assert.ok(error instanceof ModelRequestInvalidError, String(error));
    assert.ok(NON_RETRYABLE_ERROR_TYPES.includes(error.name));
  });

  test('when nothing answers at the provider address, then the call is retried', async () => {
    const closed = await startSimulator({ port: 0 });
    await closed.close();
    const error = await rejection(gatewayTo(closed.url).callTool(gatewayTestCall('unreachable', 'interactive')));
    assert.ok(error instanceof ModelUnavailableError, String(error));
  });

  test('when the activity cancels the call (worker shutdown, timed-out attempt), then it is retryable, not an invalid request', async () => {
    const call = gatewayTo(simulator.url).callTool({ ...gatewayTestCall('cancelled', 'interactive'), signal: AbortSignal.abort() });
    const error = await rejection(call);
    assert.ok(error instanceof ModelUnavailableError, String(error));
    assert.ok(!NON_RETRYABLE_ERROR_TYPES.includes(error.name));
  });
});

describe('retry-after', () => {
  test('when the provider sends milliseconds, seconds or an HTTP date, then each becomes a delay in milliseconds', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '1500', 'retry-after': '2' })), 1_500);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' })), 3_000);
    const now = Date.parse('2026-12-02T12:00:00Z');
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Wed, 02 Dec 2026 12:00:10 GMT' }), now), 10_000);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Wed, 02 Dec 2026 11:59:00 GMT' }), now), 0, 'a date passed means now');
  });

  test('when there is no usable header, then there is no hint', () => {
    assert.equal(retryAfterMs(undefined), undefined);
    assert.equal(retryAfterMs(new Headers()), undefined);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined);
  });
});
