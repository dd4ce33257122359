import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ExtractInvoiceFieldsResult } from '../../activities/invoice/contracts';
import type { ModelStepInput } from '../../activities/step-contracts';
import { createExtractInvoiceFields } from '../../activities/invoice/extract-invoice-fields';
import type { ModelGateway } from '../../gateway/model-call';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { createLogger } from '../../lib/logger';
import { type RunningSimulator, startSimulator } from '../../local/simulator/server';
import { memoryStore } from '../support/memory-store';
import { localTestConfig } from '../support/test-credentials';
import { pngOf } from '../support/scans';

const MODEL = 'claude-haiku-4-5';
const INVOICE = ['INVOICE', 'Seller: Simulated Supplies Ltd', 'Invoice No: SIM-0042', 'Invoice Date: 2024-02-29', 'Amount Due: EUR 121.00'].join('\n');
const job = { jobId: 'invoice:test:cite', tenantId: 'test', priority: 'interactive' as const };

describe('extractInvoiceFields with citations, against the simulator', () => {
  let simulator: RunningSimulator;
  let gateway: ModelGateway;
  const store = memoryStore();
  const textInput: ModelStepInput = { ...job, textKey: 'texts/test/cite.txt' };
  const scanInput: ModelStepInput = { ...job, textKey: 'texts/test/scan.txt', visual: { key: 'uploads/test/scan.png', mediaType: 'image/png', pages: 1, sizeBytes: 0 } };

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    gateway = createModelGateway({ client: createAnthropicClient(config.anthropic), prices: config.anthropic.prices, log: createLogger('test', 'silent') });
    await store.put(textInput.textKey, INVOICE, { contentType: 'text/plain' });
    await store.put(scanInput.textKey, '', { contentType: 'text/plain' });
    await store.put('uploads/test/scan.png', pngOf(200, 100), { contentType: 'image/png' });
  });
  afterAll(async () => simulator?.close());

  const extract = (deps: { gateway: ModelGateway; citeFields?: boolean }, input: ModelStepInput) =>
    new MockActivityEnvironment({}).run(createExtractInvoiceFields({ store, model: MODEL, repairTries: 0, ...deps }), input) as Promise<ExtractInvoiceFieldsResult>;

  test('when the invoice has text, then each printed field carries the line it was read from, located in the text, and both calls are counted', async () => {
    const result = await extract({ gateway, citeFields: true }, textInput);
    assert.ok(result.outcome === 'valid');
    const citations = result.extraction.citations;
    assert.equal(citations?.textLayer, true);
    const number = citations?.fields.invoiceNumber;
    assert.equal(number?.citedText, 'Invoice No: SIM-0042');
    assert.equal(INVOICE.slice(number?.startChar, number?.endChar), 'Invoice No: SIM-0042');
    assert.equal(citations?.fields.totalAmount?.citedText, 'Amount Due: EUR 121.00');
    assert.equal(citations?.fields.dueDate, undefined, 'a value the invoice does not print is not cited');
    assert.equal(result.usage.calls, 2, 'the extraction and the citations call');
    assert.equal(result.invoice?.invoiceNumber, 'SIM-0042', 'the postable invoice carries no citations');
    assert.equal('citations' in (result.invoice ?? {}), false);
  });

  test('when the invoice is a scan, then no citations call is made and the result says there is no text layer', async () => {
    const result = await extract({ gateway, citeFields: true }, scanInput);
    assert.ok(result.outcome === 'valid');
    assert.deepEqual(result.extraction.citations, { textLayer: false, fields: {} });
    assert.equal(result.usage.calls, 1);
  });

  test('when the citations call fails, then the extraction stands with every field uncited and the reason kept', async () => {
    const failing: ModelGateway = { callTool: (request) => gateway.callTool(request), citeDocument: () => Promise.reject(new Error('provider overloaded')) };
    const result = await extract({ gateway: failing, citeFields: true }, textInput);
    assert.ok(result.outcome === 'valid');
    assert.deepEqual(result.extraction.citations?.fields, {});
    assert.match(result.extraction.citations?.unavailable ?? '', /provider overloaded/);
    assert.equal(result.usage.calls, 1);
  });

  test('when citations are turned off, then the extraction has none and makes one call', async () => {
    const result = await extract({ gateway, citeFields: false }, textInput);
    assert.ok(result.outcome === 'valid');
    assert.equal(result.extraction.citations, undefined);
    assert.equal(result.usage.calls, 1);
  });
});
