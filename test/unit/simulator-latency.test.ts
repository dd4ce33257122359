import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import extractionSchema from '../../common/schemas/invoice-extraction.schema.json';
import type { Clock } from '../../local/simulator/clock';
import { handleMessages } from '../../local/simulator/messages-handler';
import { DEFAULT_OPTIONS, type SimulatorOptions } from '../../local/simulator/options';
import { SimulatorState } from '../../local/simulator/state';

/**
 * The simulator's generation time: SIM_LATENCY_BASE_MS + SIM_LATENCY_PER_OUTPUT_TOKEN_MS × output tokens
 * (local/simulator/README.md). handleMessages asks its injected sleep for that delay, so the planned delay is read
 * from what it asks for; no time passes.
 */

const CLOCK: Clock = { now: () => Date.parse('2026-12-02T12:00:00.000Z') };

function invoiceText(lineItems: number): string {
  const items = Array.from({ length: lineItems }, (_, index) => `Widget model ${index + 1}  1 x EUR 10.00  EUR 10.00`);
  return [
    'INVOICE',
    'Seller: Simulated Supplies Ltd',
    'Invoice No: SIM-0042',
    'Invoice Date: 2024-02-29',
    ...items,
    `Subtotal: EUR ${lineItems * 10}.00`,
    `Amount Due: EUR ${lineItems * 10}.00`,
  ].join('\n');
}

function recordInvoice(documentText: string, maxTokens = 4096) {
  return {
    model: 'claude-sonnet-4-6',
    max_tokens: maxTokens,
    tools: [{ name: 'record_invoice', input_schema: extractionSchema }],
    tool_choice: { type: 'tool', name: 'record_invoice' },
    messages: [{ role: 'user', content: `Read this document.\n<document>\n${documentText}\n</document>` }],
  };
}

interface Usage {
  output_tokens: number;
}

/** One call through the handler; returns the delay it planned and the output tokens it billed. */
async function call(state: SimulatorState, body: unknown, headers: Record<string, string> = {}) {
  const delays: number[] = [];
  const reply = await handleMessages({
    state,
    requestId: 'req_test',
    headers: { 'x-api-key': 'sim-test-key', ...headers },
    body,
    sleep: async (ms) => {
      delays.push(ms);
    },
    clientGone: () => false,
  });
  assert.equal(delays.length, 1, 'one wait per call');
  const usage = (reply.body as { usage?: Usage }).usage;
  return { status: reply.status, delayMs: delays[0] as number, outputTokens: usage?.output_tokens ?? 0 };
}

function simulator(options: Partial<SimulatorOptions>): SimulatorState {
  return new SimulatorState({ ...DEFAULT_OPTIONS, ...options }, CLOCK);
}

describe('simulated model latency', () => {
  test('when an answer has more output tokens, then the planned delay is longer by the per-token time of the difference', async () => {
    const state = simulator({ latencyBaseMs: 100, latencyPerOutputTokenMs: 2 });
    const short = await call(state, recordInvoice(invoiceText(1)));
    const long = await call(state, recordInvoice(invoiceText(12)));
    assert.equal(short.status, 200);
    assert.equal(long.status, 200);
    assert.ok(long.outputTokens > short.outputTokens, `${long.outputTokens} vs ${short.outputTokens} output tokens`);
    assert.ok(long.delayMs > short.delayMs);
    assert.equal(long.delayMs - short.delayMs, 2 * (long.outputTokens - short.outputTokens));
  });

  test('when a call is answered, then its delay is the base plus the per-token time of the output tokens billed', async () => {
    for (const [latencyBaseMs, latencyPerOutputTokenMs] of [
      [40, 0.2],
      [250, 1.5],
      [0, 3],
    ] as const) {
      const state = simulator({ latencyBaseMs, latencyPerOutputTokenMs });
      const { delayMs, outputTokens } = await call(state, recordInvoice(invoiceText(3)));
      assert.ok(outputTokens > 0);
      assert.equal(
        delayMs,
        latencyBaseMs + latencyPerOutputTokenMs * outputTokens,
        `base ${latencyBaseMs}, ${latencyPerOutputTokenMs}/token`,
      );
    }
  });

  test('when max_tokens cuts the answer short, then only the tokens generated count towards the delay', async () => {
    const state = simulator({ latencyBaseMs: 100, latencyPerOutputTokenMs: 2 });
    const cut = await call(state, recordInvoice(invoiceText(12), 20));
    assert.equal(cut.outputTokens, 20);
    assert.equal(cut.delayMs, 100 + 2 * 20);
  });

  test('when the latency settings change at runtime, then the next call plans with the new ones', async () => {
    const state = simulator({ latencyBaseMs: 100, latencyPerOutputTokenMs: 2 });
    const before = await call(state, recordInvoice(invoiceText(3)));
    state.applySettings({ latencyBaseMs: 10, latencyPerOutputTokenMs: 5 });
    const after = await call(state, recordInvoice(invoiceText(3)));
    assert.equal(after.outputTokens, before.outputTokens);
    assert.equal(after.delayMs, 10 + 5 * after.outputTokens);
  });

  test('when an error is injected, then it answers after the base latency alone (plus a named delay), with no tokens generated', async () => {
    const state = simulator({ latencyBaseMs: 100, latencyPerOutputTokenMs: 2 });
    const overloaded = await call(state, recordInvoice(invoiceText(12)), { 'x-sim-fault': 'overloaded' });
    assert.equal(overloaded.status, 529);
    assert.equal(overloaded.delayMs, 100);
    const delayed = await call(state, recordInvoice(invoiceText(12)), { 'x-sim-fault': 'server_error;delay-ms=700' });
    assert.equal(delayed.status, 500);
    assert.equal(delayed.delayMs, 800);
  });
});
