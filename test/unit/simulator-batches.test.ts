import Anthropic, { APIError } from '@anthropic-ai/sdk';
import assert from '../support/assert';
import { afterAll, beforeAll, beforeEach, describe, test } from '@jest/globals';
import classificationSchema from '../../common/schemas/classification.schema.json';
import type { Clock } from '../../local/simulator/clock';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';

/** The Message Batches endpoints of the simulator through the real SDK, on a clock the test moves. */

const PROCESSING_MS = 60_000;

function entry(customId: string, documentText: string): Anthropic.Messages.BatchCreateParams.Request {
  return {
    custom_id: customId,
    params: {
      model: 'claude-haiku-4-5',
      max_tokens: 512,
      system: 'You classify documents and answer only through the tool.',
      tools: [{ name: 'classify_document', description: 'Classify.', input_schema: classificationSchema as Anthropic.Tool.InputSchema }],
      tool_choice: { type: 'tool', name: 'classify_document' },
      messages: [{ role: 'user', content: `<document>\n${documentText}\n</document>` }],
    },
  };
}

async function resultsOf(client: Anthropic, batchId: string): Promise<Map<string, Anthropic.Messages.MessageBatchResult>> {
  const results = new Map<string, Anthropic.Messages.MessageBatchResult>();
  for await (const line of await client.messages.batches.results(batchId)) results.set(line.custom_id, line.result);
  return results;
}

describe('the simulator’s Message Batches', () => {
  let sim: RunningSimulator;
  let client: Anthropic;
  let now = Date.parse('2026-12-03T12:00:00Z');
  const clock: Clock = { now: () => now };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, batchProcessingMs: PROCESSING_MS, seed: 3 }, { clock });
    client = new Anthropic({ apiKey: 'test-key', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
    await fetch(`${sim.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ batchErrorRate: 0, batchExpiredRate: 0 }) });
  });

  test('when a batch is created, then it is in progress until its processing time has passed, then every entry has its own result', async () => {
    const created = await client.messages.batches.create({ requests: [entry('a-1', 'INVOICE\nInvoice No: 1\nTotal: EUR 10.00'), entry('b-2', 'Dear Sir, a letter.')] });
    assert.equal(created.processing_status, 'in_progress');
    assert.equal(created.request_counts.processing, 2);
    assert.equal(created.results_url, null);
    now += PROCESSING_MS - 1;
    assert.equal((await client.messages.batches.retrieve(created.id)).processing_status, 'in_progress');
    now += 1;
    const ended = await client.messages.batches.retrieve(created.id);
    assert.equal(ended.processing_status, 'ended');
    assert.deepEqual(ended.request_counts, { processing: 0, succeeded: 2, errored: 0, canceled: 0, expired: 0 });
    const results = await resultsOf(client, created.id);
    assert.deepEqual([...results.keys()].sort(), ['a-1', 'b-2']);
    for (const result of results.values()) {
      assert.equal(result.type, 'succeeded');
      if (result.type === 'succeeded') assert.equal(result.message.content[0]?.type, 'tool_use');
    }
    const calls = (await (await fetch(`${sim.url}/_sim/calls`)).json()) as { calls: Array<{ lane?: string }> };
    assert.deepEqual(calls.calls.map((call) => call.lane), ['batch', 'batch']);
  });

  test('when the error and expiry rates are set, then entries end errored or expired and none is billed', async () => {
    await fetch(`${sim.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ batchExpiredRate: 1 }) });
    // The rates apply when the batch ends, as the entries are processed.
    const expired = await client.messages.batches.create({ requests: [entry('x', 'INVOICE')] });
    now += PROCESSING_MS;
    assert.equal((await resultsOf(client, expired.id)).get('x')?.type, 'expired');
    await fetch(`${sim.url}/_sim/config`, { method: 'PUT', body: JSON.stringify({ batchExpiredRate: 0, batchErrorRate: 1 }) });
    const errored = await client.messages.batches.create({ requests: [entry('y', 'INVOICE')] });
    now += PROCESSING_MS;
    const error = (await resultsOf(client, errored.id)).get('y');
    assert.equal(error?.type, 'errored');
    const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { requests: number };
    assert.equal(stats.requests, 0);
  });

  test('when a fault rule matches one entry, then only that entry errors', async () => {
    await fetch(`${sim.url}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ match: { textIncludes: 'doomed' }, fault: { kind: 'server_error' }, times: null }),
    });
    const batch = await client.messages.batches.create({ requests: [entry('fine', 'INVOICE fine'), entry('doomed', 'INVOICE doomed')] });
    now += PROCESSING_MS;
    const results = await resultsOf(client, batch.id);
    assert.equal(results.get('fine')?.type, 'succeeded');
    assert.equal(results.get('doomed')?.type, 'errored');
  });

  test('when a batch is canceled before it ends, then its entries are canceled; the list shows the newest first', async () => {
    const first = await client.messages.batches.create({ requests: [entry('one', 'INVOICE')] });
    const second = await client.messages.batches.create({ requests: [entry('two', 'INVOICE')] });
    const canceled = await client.messages.batches.cancel(second.id);
    assert.equal(canceled.processing_status, 'ended');
    assert.equal(canceled.request_counts.canceled, 1);
    const listed = [];
    for await (const batch of client.messages.batches.list({ limit: 10 })) listed.push(batch.id);
    assert.deepEqual(listed, [second.id, first.id]);
  });

  test('when batches end, then the billing log counts each entry billed, a repeat across batches and the batches never read, all or for one marker', async () => {
    const billing = async (marker?: string) =>
      (await (await fetch(`${sim.url}/_sim/batch-billing${marker ? `?textIncludes=${marker}` : ''}`)).json()) as Record<string, unknown>;
    const first = await client.messages.batches.create({ requests: [entry('dup', 'INVOICE mark-1'), entry('solo', 'INVOICE mark-2')] });
    const again = await client.messages.batches.create({ requests: [entry('dup', 'INVOICE mark-1')] });
    await client.messages.batches.create({ requests: [entry('other', 'INVOICE elsewhere')] });
    assert.deepEqual(await billing('mark-'), {
      batches: 2, billedEntries: 0, billedOnce: 0, billedTwice: 0, inProgress: 2, unread: 2, unreadIds: [again.id, first.id],
    });
    now += PROCESSING_MS;
    await resultsOf(client, first.id);
    // Nobody asked about the other batches since they ended: the provider bills them all the same.
    assert.deepEqual(await billing('mark-'), {
      batches: 2, billedEntries: 3, billedOnce: 1, billedTwice: 1, inProgress: 0, unread: 1, unreadIds: [again.id],
    });
    const all = await billing();
    assert.equal(all.batches, 3);
    assert.equal(all.billedOnce, 2);
    assert.equal(all.billedTwice, 1);
    assert.equal(all.unread, 2);
  });

  test('when a custom_id is malformed or repeated, then the batch is refused with a 400', async () => {
    for (const requests of [[entry('has spaces', 'x')], [entry('same', 'x'), entry('same', 'y')]]) {
      const error = await client.messages.batches.create({ requests }).catch((caught: unknown) => caught);
      assert.ok(error instanceof APIError);
      assert.equal(error.status, 400);
    }
    const missing = await client.messages.batches.retrieve('msgbatch_nope').catch((caught: unknown) => caught);
    assert.ok(missing instanceof APIError && missing.status === 404);
  });
});
