import Anthropic, { APIError } from '@anthropic-ai/sdk';
import assert from '../support/assert';
import { afterAll, beforeAll, beforeEach, describe, test } from '@jest/globals';
import classificationSchema from '../../common/schemas/classification.schema.json';
import extractionSchema from '../../common/schemas/invoice-extraction.schema.json';
import type { Clock } from '../../local/simulator/clock';
import { extractionSchemaErrors } from '../../local/simulator/reader/output-schemas';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import type { StatsSnapshot } from '../../local/simulator/stats';

/** The real SDK against the simulator, configured the way Slowlane's workers configure it. */

const INVOICE = [
  'INVOICE',
  'Seller: Simulated Supplies Ltd',
  'Invoice No: SIM-0001',
  'Invoice Date: 2024-02-29',
  'Subtotal: EUR 100.00',
  'VAT 21%: EUR 21.00',
  'Amount Due: EUR 121.00',
].join('\n');

function invoiceRequest(documentText: string, tool: 'record_invoice' | 'classify_document' = 'record_invoice') {
  const schema = tool === 'record_invoice' ? extractionSchema : classificationSchema;
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 2048,
    system: 'You read invoices and answer only through the tool.',
    tools: [
      {
        name: tool,
        description: 'Record what the document shows.',
        input_schema: schema as Anthropic.Tool.InputSchema,
      },
    ],
    tool_choice: { type: 'tool' as const, name: tool },
    messages: [{ role: 'user' as const, content: `Read this document.\n<document>\n${documentText}\n</document>` }],
  };
}

async function admin(sim: RunningSimulator, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${sim.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function stats(sim: RunningSimulator): Promise<StatsSnapshot> {
  return (await (await admin(sim, 'GET', '/_sim/stats')).json()) as StatsSnapshot;
}

async function rejection(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  assert.fail('expected the call to fail');
}

describe('the Anthropic SDK against the simulator', () => {
  let sim: RunningSimulator;
  let client: Anthropic;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
    client = new Anthropic({ apiKey: 'sim-test-key', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(async () => sim.close());
  beforeEach(async () => {
    await admin(sim, 'POST', '/_sim/reset');
  });

  test('when a tool is forced, then the SDK parses a tool_use whose input fits the schema, with usage', async () => {
    const { data: message, response } = await client.messages.create(invoiceRequest(INVOICE)).withResponse();
    assert.equal(message.type, 'message');
    assert.match(message.id, /^msg_/);
    assert.equal(message.stop_reason, 'tool_use');
    const block = message.content[0];
    assert.ok(block?.type === 'tool_use');
    assert.match(block.id, /^toolu_/);
    assert.equal(block.name, 'record_invoice');
    assert.deepEqual(extractionSchemaErrors(block.input), []);
    const input = block.input as { invoice: { invoiceNumber: string; totalAmount: number } };
    assert.equal(input.invoice.invoiceNumber, 'SIM-0001');
    assert.equal(input.invoice.totalAmount, 121);
    assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
    assert.ok(response.headers.get('request-id'));
    for (const group of ['requests', 'input-tokens', 'output-tokens', 'tokens']) {
      assert.ok(response.headers.get(`anthropic-ratelimit-${group}-limit`), group);
      assert.ok(response.headers.get(`anthropic-ratelimit-${group}-remaining`), group);
      assert.match(
        response.headers.get(`anthropic-ratelimit-${group}-reset`) ?? '',
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      );
    }
  });

  test('when classify_document is forced, then a real invoice text is an invoice', async () => {
    const message = await client.messages.create(invoiceRequest(INVOICE, 'classify_document'));
    const block = message.content[0];
    assert.ok(block?.type === 'tool_use');
    assert.equal((block.input as { documentType: string }).documentType, 'invoice');
  });

  test('when counting tokens, then count_tokens equals the usage.input_tokens of the same request', async () => {
    const request = invoiceRequest(INVOICE);
    const { max_tokens: _maxTokens, ...countable } = request;
    const counted = await client.messages.countTokens(countable);
    const message = await client.messages.create(request);
    assert.equal(counted.input_tokens, message.usage.input_tokens);
  });

  test('when x-sim-fault asks for a rate limit, then the SDK throws RateLimitError with retry-after', async () => {
    const error = await rejection(
      client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'rate_limit;retry-after=7' } }),
    );
    assert.ok(error instanceof Anthropic.RateLimitError);
    assert.equal(error.status, 429);
    assert.equal(error.headers?.get('retry-after'), '7');
    assert.equal(error.type, 'rate_limit_error');
    assert.ok(error.requestID);
  });

  test('when the provider is overloaded, then the SDK sees status 529', async () => {
    const error = await rejection(
      client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'overloaded' } }),
    );
    assert.equal(error.status, 529);
    assert.ok(error instanceof Anthropic.OverloadedError);
    assert.equal(error.type, 'overloaded_error');
  });

  test('when the spend limit is hit, then the 429 carries enforced_spend_limit_reached', async () => {
    const error = await rejection(
      client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'spend_limit' } }),
    );
    assert.equal(error.status, 429);
    assert.equal(error.errorCode, 'enforced_spend_limit_reached');
    assert.ok(error instanceof Anthropic.EnforcedSpendLimitReachedError);
  });

  test('when a 500 or an invalid request is injected, then the SDK sees api_error and invalid_request_error', async () => {
    const serverError = await rejection(
      client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'server_error' } }),
    );
    assert.ok(serverError instanceof Anthropic.InternalServerError);
    assert.equal(serverError.type, 'api_error');
    const invalid = await rejection(
      client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'invalid_request' } }),
    );
    assert.ok(invalid instanceof Anthropic.BadRequestError);
  });

  test('when a refusal is injected, then the reply is 200 with stop_reason refusal and no tool_use', async () => {
    const message = await client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'refusal' } });
    assert.equal(message.stop_reason, 'refusal');
    assert.ok(message.content.every((block) => block.type === 'text'));
  });

  test('when malformed output is injected, then the tool_use input breaks the schema', async () => {
    const message = await client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'malformed' } });
    const block = message.content[0];
    assert.ok(block?.type === 'tool_use');
    assert.notDeepEqual(extractionSchemaErrors(block.input), []);
  });

  test('when the API key comes as x-api-key or as a Bearer token, then it is accepted', async () => {
    const body = JSON.stringify(invoiceRequest(INVOICE));
    const headers = { 'content-type': 'application/json' };
    const withHeader = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      body,
      headers: { ...headers, 'x-api-key': 'k' },
    });
    assert.equal(withHeader.status, 200);
    const withBearer = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      body,
      headers: { ...headers, authorization: 'Bearer k' },
    });
    assert.equal(withBearer.status, 200);
  });

  test('when the API key is missing or the body is invalid, then 401 and 400 come back', async () => {
    const anonymous = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify(invoiceRequest(INVOICE)),
    });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(await anonymous.json(), {
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
    });
    const { max_tokens: _maxTokens, ...withoutMaxTokens } = invoiceRequest(INVOICE);
    const invalid = await rejection(
      client.messages.create(withoutMaxTokens as Anthropic.MessageCreateParamsNonStreaming),
    );
    assert.equal(invalid.status, 400);
    assert.match(invalid.message, /max_tokens: Field required/);
  });

  test('when a fault rule has times and textIncludes, then only that many calls for that document fail', async () => {
    const created = await admin(sim, 'POST', '/_sim/faults', {
      match: { textIncludes: 'JOB-MARKER-7', tool: 'record_invoice' },
      fault: { kind: 'overloaded' },
      times: 2,
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    assert.match(id, /^flt_/);
    const marked = `${INVOICE}\nReference JOB-MARKER-7`;

    assert.equal((await client.messages.create(invoiceRequest(INVOICE))).stop_reason, 'tool_use');
    assert.equal((await rejection(client.messages.create(invoiceRequest(marked)))).status, 529);
    assert.equal((await client.messages.create(invoiceRequest(marked, 'classify_document'))).stop_reason, 'tool_use');
    assert.equal((await rejection(client.messages.create(invoiceRequest(marked)))).status, 529);
    assert.equal((await client.messages.create(invoiceRequest(marked))).stop_reason, 'tool_use');

    const calls = (await (
      await admin(sim, 'GET', '/_sim/calls?textIncludes=JOB-MARKER-7&tool=record_invoice')
    ).json()) as {
      calls: Array<{ status: number; fault: string | null }>;
    };
    assert.deepEqual(
      calls.calls.map((call) => call.status),
      [529, 529, 200],
    );
  });

  test('when calls succeed and fail, then stats count statuses, tools and billed versus rejected tokens', async () => {
    const ok = await client.messages.create(invoiceRequest(INVOICE));
    await rejection(client.messages.create(invoiceRequest(INVOICE), { headers: { 'x-sim-fault': 'overloaded' } }));
    await client.messages.create(invoiceRequest(INVOICE, 'classify_document'));
    const totals = await stats(sim);
    assert.equal(totals.requests, 3);
    assert.deepEqual(totals.byStatus, { '200': 2, '529': 1 });
    assert.deepEqual(totals.byTool.record_invoice, { requests: 2, ok: 1 });
    assert.deepEqual(totals.byTool.classify_document, { requests: 1, ok: 1 });
    assert.equal(totals.rejectedInputTokens, ok.usage.input_tokens);
    assert.ok(totals.inputTokens > ok.usage.input_tokens);
    assert.ok(totals.outputTokens > ok.usage.output_tokens);
  });
});

class ManualClock implements Clock {
  private ms = Date.UTC(2024, 0, 1);
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

describe('the simulator rate limits like the provider', () => {
  const clock = new ManualClock();
  let sim: RunningSimulator;
  let client: Anthropic;

  beforeAll(async () => {
    sim = await startSimulator(
      { port: 0, requestsPerMinute: 2, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 },
      { clock },
    );
    client = new Anthropic({ apiKey: 'sim-test-key', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(async () => sim.close());

  test('when the request bucket is empty, then a real 429 says when it refills, and afterwards calls pass', async () => {
    await client.messages.create(invoiceRequest(INVOICE));
    await client.messages.create(invoiceRequest(INVOICE));
    clock.advance(5_000);
    const error = await rejection(client.messages.create(invoiceRequest(INVOICE)));
    assert.ok(error instanceof Anthropic.RateLimitError);
    assert.equal(error.headers?.get('retry-after'), '25');
    assert.equal(error.headers?.get('anthropic-ratelimit-requests-remaining'), '0');
    clock.advance(25_000);
    const message = await client.messages.create(invoiceRequest(INVOICE));
    assert.equal(message.stop_reason, 'tool_use');
    const totals = await stats(sim);
    assert.deepEqual(totals.byStatus, { '200': 3, '429': 1 });
  });
});
