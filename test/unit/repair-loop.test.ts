import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { answerWithRepairs, briefErrors } from '../../activities/repair-loop';
import { ModelRateLimitedError } from '../../common/errors';
import { validateExtraction, type ValidationResult } from '../../common/validation';
import type { RepairRequest, ToolCallResult } from '../../gateway/model-call';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { createLogger } from '../../lib/logger';
import { isRepairRequest, repairSucceeds } from '../../local/simulator/repair-answer';
import { type RunningSimulator, startSimulator } from '../../local/simulator/server';
import { gatewayTestCall } from '../support/gateway-calls';
import { localTestConfig } from '../support/test-credentials';

function answer(toolInput: unknown, costUsd = 0.01): ToolCallResult {
  return {
    toolInput,
    stopReason: 'tool_use',
    model: 'm',
    usage: { inputTokens: 100, outputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: 40, costUsd },
  };
}

const isNumber = (value: unknown): ValidationResult<number> =>
  typeof value === 'number' ? { ok: true, value } : { ok: false, errors: [`(root) must be number, got ${JSON.stringify(value)}`] };

describe('the repair loop', () => {
  test('when the first answer fails the schema, then the next call carries that answer and its errors, and a valid repair is the result', async () => {
    const asked: Array<RepairRequest | undefined> = [];
    const script = [answer('twelve'), answer(12)];
    const result = await answerWithRepairs({
      validate: isNumber,
      repairTries: 2,
      ask: async (repair) => {
        asked.push(repair);
        const next = script.shift();
        if (!next) throw new Error('the fake model ran out of answers');
        return next;
      },
    });
    assert.deepEqual(asked, [undefined, { previousInput: 'twelve', errors: ['(root) must be number, got "twelve"'] }]);
    assert.deepEqual(result.checked, { ok: true, value: 12 });
    assert.equal(result.repairs, 1);
    assert.deepEqual(result.usage, { inputTokens: 200, outputTokens: 20, cacheCreationInputTokens: 0, cacheReadInputTokens: 80, costUsd: 0.02, calls: 2, byLane: { live: { calls: 2, costUsd: 0.02 } } });
  });

  test('when repairs run out, then the last answer stands invalid; with no tries there is no second call', async () => {
    let calls = 0;
    const ask = async () => {
      calls += 1;
      return answer('still no');
    };
    const tried = await answerWithRepairs({ validate: isNumber, repairTries: 1, ask });
    assert.deepEqual([tried.checked.ok, tried.repairs, calls, tried.usage.calls], [false, 1, 2, 2]);
    calls = 0;
    const none = await answerWithRepairs({ validate: isNumber, repairTries: 0, ask });
    assert.deepEqual([none.checked.ok, calls], [false, 1]);
  });

  test('when a repair call fails, then the first answer stands, billed, and the error is handed back', async () => {
    const refused = new ModelRateLimitedError('429', { retryAfterMs: 1000 });
    let calls = 0;
    const result = await answerWithRepairs({
      validate: isNumber,
      repairTries: 1,
      ask: async () => {
        calls += 1;
        if (calls > 1) throw refused;
        return answer('x');
      },
    });
    assert.deepEqual([result.checked.ok, result.repairs, result.usage.calls, result.repairError], [false, 0, 1, refused]);
  });

  test('when the validator reports many long errors, then the model is shown eight, each at most 200 characters, and the count of the rest', () => {
    const errors = Array.from({ length: 11 }, (_, index) => `/field${index} ${'x'.repeat(300)}`);
    const brief = briefErrors(errors);
    assert.equal(brief.length, 9);
    assert.ok(brief.slice(0, 8).every((error) => error.length <= 200));
    assert.equal(brief[8], '(3 more errors)');
  });
});

describe('the simulator’s repairs', () => {
  const base = {
    model: 'm',
    max_tokens: 10,
    messages: [
      { role: 'user' as const, content: 'doc' },
      { role: 'assistant' as const, content: [{ type: 'tool_use', id: 't', name: 'record_invoice', input: {} }] },
      { role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: 't', is_error: true, content: 'bad' }] },
    ],
  };

  test('when a request returns an error result for the last tool call, then it is a repair, decided the same way every time', () => {
    assert.equal(isRepairRequest(base), true);
    assert.equal(isRepairRequest({ ...base, messages: base.messages.slice(0, 1) }), false);
    assert.equal(repairSucceeds(base, 1), true);
    assert.equal(repairSucceeds(base, 0), false);
    assert.equal(repairSucceeds(base, 0.5), repairSucceeds(structuredClone(base), 0.5));
    const variants = Array.from({ length: 400 }, (_, index) => ({ ...base, model: `m${index}` }));
    const repaired = variants.filter((variant) => repairSucceeds(variant, 0.7)).length / variants.length;
    assert.ok(repaired > 0.6 && repaired < 0.8, `repaired share ${repaired}`);
  });
});

describe('the repair loop against the simulator, through the gateway', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, rateMalformed: 1, repairRate: 1 });
  });
  afterAll(async () => {
    await simulator?.close();
  });

  async function extract(marker: string, repairTries: number) {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    const gateway = createModelGateway({
      client: createAnthropicClient(config.anthropic),
      prices: config.anthropic.prices,
      log: createLogger('test', 'silent'),
    });
    const request = gatewayTestCall(marker, 'bulk');
    return answerWithRepairs({
      validate: validateExtraction,
      repairTries,
      ask: (repair, moreCallsFollow) =>
        gateway.callTool({ ...request, cacheDocument: moreCallsFollow, ...(repair ? { repair } : {}) }),
    });
  }

  test('when every first answer is malformed and the model fixes what it is told, then one repair makes it valid', async () => {
    const result = await extract('repair-yes', 1);
    assert.ok(result.checked.ok, JSON.stringify(result.checked));
    assert.equal(result.usage.calls, 2);
  });

  test('when a rule asks for malformed output, then the repair is malformed too, whatever the repair rate', async () => {
    await fetch(`${simulator.url}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ match: { textIncludes: 'repair-ruled' }, fault: { kind: 'malformed' } }),
    });
    const result = await extract('repair-ruled', 1);
    assert.equal(result.checked.ok, false);
    assert.equal(result.repairs, 1);
  });

  test('when the model cannot fix it, then the answer stays invalid after the repair', async () => {
    await fetch(`${simulator.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ repairRate: 0 }) });
    const result = await extract('repair-no', 1);
    assert.equal(result.checked.ok, false);
    assert.equal(result.repairs, 1);
  });
});
