import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { SUMMARIZE_CHUNK_TOOL, SUMMARIZE_DOCUMENT_TOOL, TRANSCRIBE_PAGE_TOOL } from '../../activities/document/prompts';
import { askWithRepairs } from '../../activities/call-model-on-text';
import { SCORE_ORDER_TOOL } from '../../activities/order-score/prompts';
import { CLASSIFY_TOOL, EXTRACT_INSTRUCTION, EXTRACT_MAX_TOKENS, EXTRACT_SYSTEM, EXTRACT_TOOL } from '../../activities/invoice/prompts';
import { answerWithRepairs, type RepairedAnswer } from '../../activities/repair-loop';
import { NARRATIVE_TOOL, SUMMARISE_TOOL } from '../../activities/tickets-digest/prompts';
import { ApplicationFailure } from '@temporalio/common';
import { ConstrainedAnswerInvalidError, NON_RETRYABLE_ERROR_TYPES } from '../../common/errors';
import type { InvoiceExtraction } from '../../common/invoice';
import { validateExtraction } from '../../common/validation';
import type { ToolCallResult } from '../../gateway/model-call';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { constrainedFormatOf } from '../../gateway/output-format';
import { toApplicationFailure } from '../../lib/failures';
import { createLogger } from '../../lib/logger';
import { outputSchemaProblem, toolForSchema } from '../../local/simulator/output-format';
import { type RunningSimulator, startSimulator } from '../../local/simulator/server';
import { MockActivityEnvironment } from '@temporalio/testing';
import { gatewayTestCall, markedInvoiceText } from '../support/gateway-calls';
import { localTestConfig } from '../support/test-credentials';

const SUPPORTING = 'claude-sonnet-4-6';
const NOT_SUPPORTING = 'claude-haiku-4-5';

describe('schemas for constrained answers', () => {
  test("when each step's schema is made into an output format, then the API's rules hold and the simulator knows the step by it", () => {
    const tools = [CLASSIFY_TOOL, EXTRACT_TOOL, SCORE_ORDER_TOOL, SUMMARISE_TOOL, NARRATIVE_TOOL, SUMMARIZE_CHUNK_TOOL, TRANSCRIBE_PAGE_TOOL, SUMMARIZE_DOCUMENT_TOOL];
    for (const tool of tools) {
      const { schema } = constrainedFormatOf(tool);
      assert.equal(outputSchemaProblem(schema), null, tool.name);
      assert.equal(toolForSchema(schema), tool.name);
    }
  });

  test('when a schema uses what structured outputs refuse, then the simulator says which and where', () => {
    const closed = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });
    assert.match(outputSchemaProblem(closed({ score: { type: 'number', minimum: 0 } })) ?? '', /properties\.score: 'minimum'/);
    assert.match(outputSchemaProblem(closed({ name: { type: 'string', maxLength: 5 } })) ?? '', /'maxLength'/);
    assert.match(outputSchemaProblem(closed({ tags: { type: 'array', items: { type: 'string' }, minItems: 2 } })) ?? '', /'minItems'/);
    assert.match(outputSchemaProblem(closed({ colour: { type: 'string', format: 'color' } })) ?? '', /format 'color'/);
    assert.match(outputSchemaProblem({ type: 'object', properties: { a: { type: 'string' } } }) ?? '', /additionalProperties/);
    const tree = { $defs: { node: closed({ children: { type: 'array', items: { $ref: '#/$defs/node' } } }) }, $ref: '#/$defs/node' };
    assert.match(outputSchemaProblem(tree) ?? '', /recursive/);
    assert.equal(outputSchemaProblem(closed({ when: { type: 'string', format: 'date' }, kind: { enum: ['a', 'b'] } })), null);
  });
});

describe('constrained answers against the simulator, through the gateway', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    // Every first answer malformed, every repair good: what the constraint changes is plain in the call counts.
    simulator = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, rateMalformed: 1, repairRate: 1 });
  });
  afterAll(async () => {
    await simulator?.close();
  });

  function gateway() {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    return createModelGateway({
      client: createAnthropicClient(config.anthropic),
      prices: config.anthropic.prices,
      log: createLogger('test', 'silent'),
      constrainedModels: [SUPPORTING],
    });
  }

  async function extract(marker: string, model: string, maxTokens?: number) {
    const door = gateway();
    const request = { ...gatewayTestCall(marker, 'bulk'), model, ...(maxTokens ? { maxTokens } : {}) };
    return answerWithRepairs({
      validate: validateExtraction,
      repairTries: 1,
      ask: (repair, moreCallsFollow) => door.callTool({ ...request, cacheDocument: moreCallsFollow, ...(repair ? { repair } : {}) }),
    });
  }

  async function callsOf(marker: string): Promise<Array<{ status: number; constrained?: boolean; tool: string | null }>> {
    const reply = await fetch(`${simulator.url}/_sim/calls?textIncludes=${marker}`);
    return ((await reply.json()) as { calls: Array<{ status: number; constrained?: boolean; tool: string | null }> }).calls;
  }

  test('when the model supports it, then the request carries output_config and the malformed fault cannot break the answer: valid at once', async () => {
    const result = await extract('constrained-yes', SUPPORTING);
    assert.ok(result.checked.ok, JSON.stringify(result.checked));
    assert.deepEqual([result.repairs, result.usage.calls, result.call.mode], [0, 1, 'constrained']);
    const calls = await callsOf('constrained-yes');
    assert.deepEqual(calls.map((call) => [call.status, call.constrained, call.tool]), [[200, true, 'record_invoice']]);
  });

  test('when the model does not support it, then the request is a forced tool call and the repair loop fixes the malformed answer', async () => {
    const result = await extract('constrained-no', NOT_SUPPORTING);
    assert.ok(result.checked.ok, JSON.stringify(result.checked));
    assert.deepEqual([result.repairs, result.usage.calls, result.call.mode], [1, 2, undefined]);
    const calls = await callsOf('constrained-no');
    assert.deepEqual(calls.map((call) => [call.status, call.constrained, call.tool]), [[200, undefined, 'record_invoice'], [200, undefined, 'record_invoice']]);
  });

  test('when a constrained answer is cut at max_tokens, then it fails as ConstrainedAnswerInvalidError with its cost, and no repair is asked', async () => {
    const failure = await extract('constrained-cut', SUPPORTING, 40).then(
      () => assert.fail('a cut answer must not pass'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ConstrainedAnswerInvalidError, String(failure));
    assert.equal(failure.retryable, false);
    assert.match(failure.message, /stop reason max_tokens/);
    assert.equal((failure.details?.billedUsage as { calls: number }).calls, 1);
    assert.equal((await callsOf('constrained-cut')).length, 1);
  });

  test('when a batch answer (a forced tool call) is malformed and the model is listed, then the live repair is one fresh constrained ask, valid', async () => {
    const fromBatch: ToolCallResult = {
      toolInput: { invoice: { totalAmount: '12,50' } },
      stopReason: 'tool_use',
      model: SUPPORTING,
      usage: { inputTokens: 100, outputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: 0.01, lane: 'batch' },
    };
    const result: RepairedAnswer<InvoiceExtraction> = await new MockActivityEnvironment().run(() =>
      askWithRepairs<InvoiceExtraction>(
        { gateway: gateway(), model: SUPPORTING, repairTries: 1 },
        { jobId: 'test/constrained-batch', tenantId: 'demo', priority: 'bulk' },
        { documentText: markedInvoiceText('constrained-batch') },
        { system: EXTRACT_SYSTEM, instruction: EXTRACT_INSTRUCTION, tool: EXTRACT_TOOL, maxTokens: EXTRACT_MAX_TOKENS },
        validateExtraction,
        fromBatch,
      ),
    );
    assert.ok(result.checked.ok, JSON.stringify(result.checked));
    assert.deepEqual([result.repairs, result.call.mode, result.usage.calls], [1, 'constrained', 2]);
    const calls = await callsOf('constrained-batch');
    assert.deepEqual(calls.map((call) => [call.status, call.constrained]), [[200, true]]);
  });

  test('when the schema sent has a keyword the API refuses, then the simulator answers 400 invalid_request_error', async () => {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    const reply = await fetch(`${simulator.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': config.anthropic.apiKey.reveal() },
      body: JSON.stringify({
        model: SUPPORTING,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'constrained-refused' }],
        output_config: { format: { type: 'json_schema', schema: { ...EXTRACT_TOOL.inputSchema } } },
      }),
    });
    const body = (await reply.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(reply.status, 400);
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /^output_config\.format\.schema\.properties\.invoice\.properties\.invoiceNumber: 'maxLength'/);
  });
});

describe('the repair loop and a constrained answer', () => {
  test('when a constrained answer fails the schema, then the loop throws instead of repairing, with the raw output', async () => {
    let calls = 0;
    const constrained: ToolCallResult = {
      toolInput: { invoice: {} },
      mode: 'constrained',
      stopReason: 'end_turn',
      model: SUPPORTING,
      usage: { inputTokens: 100, outputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: 0.01 },
    };
    const failure = await answerWithRepairs({
      validate: validateExtraction,
      repairTries: 3,
      ask: async () => {
        calls += 1;
        return constrained;
      },
    }).then(
      () => assert.fail('an invalid constrained answer must not pass'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ConstrainedAnswerInvalidError);
    assert.equal(calls, 1);
    assert.equal(failure.details?.rawOutput, '{"invoice":{}}');
  });
});

describe('a constrained answer that failed, at the activity boundary', () => {
  test('when it leaves the activity, then Temporal is told not to retry it, and the billed call goes with it', () => {
    const billedUsage = { inputTokens: 100, outputTokens: 40, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, costUsd: 0.01, calls: 1 };
    const failure = toApplicationFailure(new ConstrainedAnswerInvalidError('cut short', { details: { billedUsage, rawOutput: '{"inv' } }), 1);
    assert.ok(failure instanceof ApplicationFailure);
    assert.deepEqual([failure.type, failure.nonRetryable], ['ConstrainedAnswerInvalidError', true]);
    assert.deepEqual((failure.details?.[0] as { billedUsage: unknown }).billedUsage, billedUsage);
    assert.ok(NON_RETRYABLE_ERROR_TYPES.includes('ConstrainedAnswerInvalidError'));
  });
});
