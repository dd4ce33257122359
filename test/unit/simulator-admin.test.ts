import assert from '../support/assert';
import { afterAll, beforeAll, beforeEach, describe, test } from '@jest/globals';
import type { RuntimeSettings } from '../../local/simulator/options';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import type { CallRecord, StatsSnapshot } from '../../local/simulator/stats';

/** The `/_sim/*` control surface over real HTTP. */

const MESSAGE = {
  model: 'sim-model',
  max_tokens: 1024,
  tools: [{ name: 'record_invoice', input_schema: { type: 'object' } }],
  tool_choice: { type: 'tool', name: 'record_invoice' },
  messages: [{ role: 'user', content: '<document>Invoice No: A-1\nTotal: EUR 10.00</document>' }],
};

describe('the simulator control surface', () => {
  let sim: RunningSimulator;

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${sim.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return {
      status: response.status,
      headers: response.headers,
      json: (await response.json()) as Record<string, unknown>,
    };
  };
  const message = (headers: Record<string, string> = {}) =>
    call('POST', '/v1/messages', MESSAGE, { 'x-api-key': 'k', ...headers });

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
  });
  afterAll(async () => sim.close());
  beforeEach(async () => {
    await call('PUT', '/_sim/config', {
      rate429: 0,
      rate529: 0,
      rate500: 0,
      rateRefusal: 0,
      rateMalformed: 0,
      seed: null,
    });
    await call('POST', '/_sim/reset');
  });

  test('when healthz is asked, then it answers 200; an unknown path is a 404 not_found_error', async () => {
    assert.equal((await call('GET', '/healthz')).status, 200);
    const missing = await call('GET', '/v1/models');
    assert.equal(missing.status, 404);
    assert.deepEqual((missing.json.error as { type: string }).type, 'not_found_error');
  });

  test('when the body is not JSON, then it is a 400 invalid_request_error', async () => {
    const response = await call('POST', '/v1/messages', '{"model":', { 'x-api-key': 'k' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.json, {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'request body is not valid JSON' },
    });
  });

  test('when config is changed at runtime, then GET shows it and bad values are a 400 that changes nothing', async () => {
    const changed = await call('PUT', '/_sim/config', { requestsPerMinute: 123, rate529: 0.1 });
    assert.equal(changed.status, 200);
    const shown = (await call('GET', '/_sim/config')).json as unknown as RuntimeSettings;
    assert.equal(shown.requestsPerMinute, 123);
    assert.equal(shown.rate529, 0.1);
    const tooMuch = await call('PUT', '/_sim/config', { rate429: 0.95 });
    assert.equal(tooMuch.status, 400);
    assert.match((tooMuch.json.error as { message: string }).message, /add up to/);
    assert.equal(((await call('GET', '/_sim/config')).json as unknown as RuntimeSettings).rate429, 0);
    assert.equal((await call('PUT', '/_sim/config', { port: 1 })).status, 400);
  });

  test('when the request limit is lowered, then the rate-limit headers report the new limit', async () => {
    await call('PUT', '/_sim/config', { requestsPerMinute: 100 });
    const response = await message();
    assert.equal(response.headers.get('anthropic-ratelimit-requests-limit'), '100');
    assert.equal(response.headers.get('anthropic-ratelimit-requests-remaining'), '99');
    // The tokens-* set repeats whichever token limit is most restrictive now.
    assert.ok(['2000000', '400000'].includes(response.headers.get('anthropic-ratelimit-tokens-limit') ?? ''));
    await call('PUT', '/_sim/config', { requestsPerMinute: 4000 });
  });

  test('when the limits are lowered through /_sim/limits and restored, then the headers follow, reset included', async () => {
    const startup = (await call('GET', '/_sim/limits')).json.startup as Record<string, number>;
    const lowered = await call('PUT', '/_sim/limits', { scale: 0.25 });
    assert.equal(lowered.status, 200);
    assert.deepEqual(lowered.json.limits, {
      requestsPerMinute: startup.requestsPerMinute! / 4,
      inputTokensPerMinute: startup.inputTokensPerMinute! / 4,
      outputTokensPerMinute: startup.outputTokensPerMinute! / 4,
    });
    const during = await message();
    assert.equal(during.headers.get('anthropic-ratelimit-input-tokens-limit'), String(startup.inputTokensPerMinute! / 4));
    assert.equal(during.headers.get('anthropic-ratelimit-requests-limit'), String(startup.requestsPerMinute! / 4));
    // One request taken: the bucket is full again a minute's 1/limit later, stated in whole seconds.
    const reset = Date.parse(during.headers.get('anthropic-ratelimit-requests-reset') ?? '');
    assert.ok(reset > Date.now() - 1_000 && reset <= Date.now() + 2_000, `requests reset ${reset}`);

    const restored = await call('DELETE', '/_sim/limits');
    assert.deepEqual(restored.json.limits, startup);
    const after = await message();
    assert.equal(after.headers.get('anthropic-ratelimit-input-tokens-limit'), String(startup.inputTokensPerMinute));
    const changes = restored.json.changes as Array<{ limits: Record<string, number>; levelChange: Record<string, number> }>;
    assert.deepEqual(
      changes.slice(-2).map((change) => change.limits.inputTokensPerMinute),
      [startup.inputTokensPerMinute! / 4, startup.inputTokensPerMinute],
    );
    assert.ok((changes.at(-2)?.levelChange.input_tokens ?? 0) < 0, 'a lower limit takes from the bucket');
    assert.equal((await call('PUT', '/_sim/limits', { scale: 0 })).status, 400);
    assert.equal((await call('PUT', '/_sim/limits', { requestsPerMinute: 1.5 })).status, 400);
    assert.equal((await call('PUT', '/_sim/limits', { latencyBaseMs: 1 })).status, 400);
  });

  test('when fault rules are added, listed and removed, then only the remaining ones apply', async () => {
    const first = (await call('POST', '/_sim/faults', { fault: { kind: 'server_error' } })).json.id as string;
    await call('POST', '/_sim/faults', { match: { model: 'other-model' }, fault: { kind: 'refusal' }, times: 3 });
    const listed = (await call('GET', '/_sim/faults')).json.rules as Array<{ id: string; remaining: number | null }>;
    assert.deepEqual(
      listed.map((rule) => rule.remaining),
      [null, 3],
    );
    assert.equal((await message()).status, 500);
    assert.equal((await call('DELETE', `/_sim/faults/${first}`)).status, 200);
    assert.equal((await call('DELETE', `/_sim/faults/${first}`)).status, 404);
    assert.equal((await message()).status, 200);
    await call('DELETE', '/_sim/faults');
    assert.deepEqual((await call('GET', '/_sim/faults')).json.rules, []);
    const invalid = await call('POST', '/_sim/faults', { fault: { kind: 'gremlins' } });
    assert.equal(invalid.status, 400);
  });

  test('when a slow fault names a delay, then the call still succeeds', async () => {
    const response = await message({ 'x-sim-fault': 'slow;delay-ms=20' });
    assert.equal(response.status, 200);
    const calls = (await call('GET', '/_sim/calls')).json.calls as CallRecord[];
    assert.equal(calls.at(-1)?.fault, 'slow');
  });

  test('when the call log is filtered by status and limit, then only those calls come back', async () => {
    await message();
    await message({ 'x-sim-fault': 'rate_limit;retry-after=3' });
    await message();
    const rejected = (await call('GET', '/_sim/calls?status=429')).json.calls as CallRecord[];
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0]?.fault, 'rate_limit');
    assert.equal(rejected[0]?.outputTokens, 0);
    assert.match(rejected[0]?.requestId ?? '', /^req_/);
    const last = (await call('GET', '/_sim/calls?limit=1')).json.calls as CallRecord[];
    assert.equal(last.length, 1);
    assert.equal(last[0]?.status, 200);
  });

  test('when reset, then stats and rules are cleared', async () => {
    await call('POST', '/_sim/faults', { fault: { kind: 'overloaded' } });
    await message();
    await call('POST', '/_sim/reset');
    const totals = (await call('GET', '/_sim/stats')).json as unknown as StatsSnapshot;
    assert.equal(totals.requests, 0);
    assert.deepEqual((await call('GET', '/_sim/faults')).json.rules, []);
    assert.equal((await message()).status, 200);
  });

  test('when seeded with random fault rates, then a run after reset repeats the same statuses', async () => {
    await call('PUT', '/_sim/config', { rate529: 0.3, rate500: 0.2, seed: 2024 });
    await call('POST', '/_sim/reset');
    const run = async (): Promise<number[]> => {
      const statuses: number[] = [];
      for (let index = 0; index < 20; index += 1) statuses.push((await message()).status);
      return statuses;
    };
    const first = await run();
    await call('POST', '/_sim/reset');
    const second = await run();
    assert.deepEqual(second, first);
    assert.ok(first.includes(529) && first.includes(500) && first.includes(200), first.join(','));
  });
});
