import Anthropic, { APIError } from '@anthropic-ai/sdk';
import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import { fieldCitationsOf } from '../../activities/invoice/field-citations-of';
import { CITE_INSTRUCTION, CITE_SYSTEM } from '../../activities/invoice/prompts';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { createLogger } from '../../lib/logger';
import { renderPdf } from '../../local/samples/pdf-render';
import { type RunningSimulator, startSimulator } from '../../local/simulator/server';

const INVOICE = [
  'INVOICE',
  'Seller: Simulated Supplies Ltd',
  'Invoice No: SIM-0001',
  'Invoice Date: 29.02.2024',
  'Subtotal: EUR 1.000,00',
  'Amount Due: EUR 1.210,00',
].join('\n');

const QUESTION = `${CITE_INSTRUCTION}\n\n- invoiceNumber: SIM-0001\n- issueDate: 2024-02-29\n- totalAmount: 1210\n- dueDate: 2024-03-31`;

function citationsRequest(document: Anthropic.DocumentBlockParam, extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user' as const, content: [document, { type: 'text' as const, text: QUESTION }] }],
    ...extra,
  };
}

const textDocument = (data: string, citations = true): Anthropic.DocumentBlockParam => ({
  type: 'document',
  source: { type: 'text', media_type: 'text/plain', data },
  citations: { enabled: citations },
});

async function refusal(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  assert.fail('expected the provider to refuse the request');
}

describe('citations on document blocks, through the gateway and the simulator', () => {
  let simulator: RunningSimulator;
  let client: Anthropic;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
    client = new Anthropic({ apiKey: 'sim-test-key', baseURL: simulator.url, maxRetries: 0 });
  });
  afterAll(async () => simulator?.close());

  test('when the gateway asks where each value is printed, then each asked field gets the line that shows it, located by characters', async () => {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
    const gateway = createModelGateway({ client: createAnthropicClient(config.anthropic), prices: config.anthropic.prices, log: createLogger('test', 'silent') });
    assert.ok(gateway.citeDocument);
    const answer = await gateway.citeDocument({
      jobId: 'invoice:t:citations',
      priority: 'interactive',
      model: 'claude-sonnet-4-5',
      system: CITE_SYSTEM,
      documentText: INVOICE,
      instruction: QUESTION,
      maxTokens: 1024,
    });
    const fields = fieldCitationsOf(answer.blocks, ['invoiceNumber', 'issueDate', 'totalAmount', 'dueDate']);
    assert.deepEqual(Object.keys(fields).sort(), ['invoiceNumber', 'issueDate', 'totalAmount'], 'the due date is not printed: not cited');
    for (const [name, line] of [['invoiceNumber', 'Invoice No: SIM-0001'], ['issueDate', 'Invoice Date: 29.02.2024'], ['totalAmount', 'Amount Due: EUR 1.210,00']] as const) {
      const citation = fields[name];
      assert.equal(citation?.citedText, line, name);
      assert.equal(INVOICE.slice(citation?.startChar, citation?.endChar), line, `${name}: the range is where the text is`);
    }
    assert.ok(answer.usage.outputTokens > 0 && answer.usage.inputTokens > 0, 'the call is billed');
  });

  test('when a PDF document enables citations, then the citation names the page, 1-based with an exclusive end', async () => {
    const pdf = await renderPdf({
      format: 'pdf',
      fileName: 'citations.pdf',
      expectedOutcome: 'posted',
      description: 'test',
      title: 'Invoice SIM-0001',
      blocks: [{ kind: 'fields', rows: [['Invoice No:', 'SIM-0001']] }],
    });
    const message = await client.messages.create(
      citationsRequest({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') }, citations: { enabled: true } }),
    );
    const cited = message.content.flatMap((block) => (block.type === 'text' ? (block.citations ?? []) : []));
    const first = cited[0];
    assert.ok(first?.type === 'page_location', `a page location: ${JSON.stringify(cited)}`);
    assert.equal(first.start_page_number, 1);
    assert.equal(first.end_page_number, 2);
    assert.match(first.cited_text, /SIM-0001/);
  });

  test('when a custom-content document enables citations, then a cited block is named by its index, never a part of a block', async () => {
    const lines = INVOICE.split('\n');
    const message = await client.messages.create(
      citationsRequest({ type: 'document', source: { type: 'content', content: lines.map((text) => ({ type: 'text' as const, text })) }, citations: { enabled: true } }),
    );
    const cited = message.content.flatMap((block) => (block.type === 'text' ? (block.citations ?? []) : []));
    const first = cited[0];
    assert.ok(first?.type === 'content_block_location', JSON.stringify(cited));
    assert.equal(first.start_block_index, lines.indexOf('Invoice No: SIM-0001'));
    assert.equal(first.end_block_index, first.start_block_index + 1);
    assert.equal(first.cited_text, 'Invoice No: SIM-0001');
  });

  test('when citations come with structured outputs, then the provider refuses the request (400)', async () => {
    const format = { type: 'json_schema' as const, schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false } };
    const error = await refusal(client.messages.create(citationsRequest(textDocument(INVOICE), { output_config: { format } })));
    assert.equal(error.status, 400);
    assert.match(error.message, /structured outputs/);
  });

  test('when one document enables citations and another does not, then the provider refuses the request (400)', async () => {
    const request = citationsRequest(textDocument(INVOICE));
    const mixed = { ...request, messages: [{ role: 'user' as const, content: [textDocument('Another document.', false), textDocument(INVOICE), { type: 'text' as const, text: QUESTION }] }] };
    const error = await refusal(client.messages.create(mixed));
    assert.equal(error.status, 400);
    assert.match(error.message, /all documents or on none/);
  });

  test('when a custom-content document has an empty text block, then the provider refuses it (400)', async () => {
    const document: Anthropic.DocumentBlockParam = { type: 'document', source: { type: 'content', content: [{ type: 'text', text: '' }] }, citations: { enabled: true } };
    const error = await refusal(client.messages.create(citationsRequest(document)));
    assert.equal(error.status, 400);
  });

  test('when a text document has another media type, then the provider refuses it (400)', async () => {
    const document = { type: 'document', source: { type: 'text', media_type: 'text/html', data: INVOICE }, citations: { enabled: true } } as unknown as Anthropic.DocumentBlockParam;
    const error = await refusal(client.messages.create(citationsRequest(document)));
    assert.equal(error.status, 400);
  });
});

describe('fieldCitationsOf', () => {
  const at = (citedText: string, start: number) => [{ type: 'char_location' as const, citedText, startCharIndex: start, endCharIndex: start + citedText.length }];

  test('when a cited block follows a field name, then the citation is that field\'s, and a quoted label that is not asked does not take it', () => {
    const fields = fieldCitationsOf(
      [
        { text: 'invoiceNumber: ', citations: [] },
        { text: 'A-1', citations: at('Invoice A-1', 0) },
        { text: '\ntotalAmount: ', citations: [] },
        { text: 'Total: 12.00', citations: at('Total: 12.00', 20) },
        { text: '\nissuer: not shown', citations: [] },
      ],
      ['invoiceNumber', 'totalAmount', 'issuer'],
    );
    assert.deepEqual(fields, {
      invoiceNumber: { citedText: 'Invoice A-1', startChar: 0, endChar: 11 },
      totalAmount: { citedText: 'Total: 12.00', startChar: 20, endChar: 32 },
    });
  });
});
