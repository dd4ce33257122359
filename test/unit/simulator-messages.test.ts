import assert from '../support/assert';
import { OrderScoreProposal } from '../../common/job-types/order-score/order-score';
import { validateAgainst } from '../../common/validation';
import { describe, test } from '@jest/globals';
import { buildAssistantMessage, OUTPUT_OVERHEAD_TOKENS, outputTokensOf } from '../../local/simulator/assistant-message';
import { malform } from '../../local/simulator/malformed-output';
import { parseMessagesRequest, type MessagesRequest } from '../../local/simulator/messages-request';
import { answerFor } from '../../local/simulator/model';
import { classificationSchemaErrors, extractionSchemaErrors } from '../../local/simulator/reader/output-schemas';
import { documentTextOf, requestedToolName } from '../../local/simulator/request-text';
import { countInputTokens } from '../../local/simulator/token-count';

const base: MessagesRequest = {
  model: 'sim-model',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Read this.\n<document>\nINVOICE 1\n</document>' }],
};

describe('countInputTokens', () => {
  test('when counting, then it is ceil(chars / 4) over system, message texts and the tools JSON', () => {
    const tools = [{ name: 'record_invoice', input_schema: { type: 'object' } }];
    const request: MessagesRequest = {
      ...base,
      system: 'abcd',
      messages: [
        { role: 'user', content: [{ type: 'text', text: '12345678' }] },
        { role: 'assistant', content: 'x' },
      ],
      tools,
    };
    const chars = 4 + 8 + 1 + JSON.stringify(tools).length;
    assert.equal(countInputTokens(request), Math.ceil(chars / 4));
  });
});

describe('documentTextOf and requestedToolName', () => {
  test('when the document sits in <document> tags, in a string or in text blocks, then only it is taken', () => {
    assert.equal(documentTextOf(base), 'INVOICE 1');
    const blocks: MessagesRequest = {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'text', text: '<document>Faktura</document>' },
          ],
        },
      ],
    };
    assert.equal(documentTextOf(blocks), 'Faktura');
  });

  test('when the tool is forced, then that tool is used, known or not; with none, no tool', () => {
    const tools = [{ name: 'record_invoice', input_schema: {} }];
    assert.equal(
      requestedToolName({ ...base, tools, tool_choice: { type: 'tool', name: 'record_invoice' } }, ['record_invoice']),
      'record_invoice',
    );
    assert.equal(requestedToolName({ ...base, tools, tool_choice: { type: 'none' } }, ['record_invoice']), null);
    assert.equal(requestedToolName(base, ['record_invoice']), null);
  });
});

describe('parseMessagesRequest', () => {
  test('when fields are missing or wrong, then the message names the field like the provider does', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ...base, max_tokens: undefined }, /^max_tokens: Field required$/],
      [{ ...base, max_tokens: 0 }, /max_tokens/],
      [{ ...base, model: '' }, /^model: Field required$/],
      [{ ...base, messages: [] }, /messages/],
      [{ ...base, messages: [{ role: 'system', content: 'x' }] }, /messages.0.role/],
      [{ ...base, stream: true }, /streaming is not simulated/],
      [
        { ...base, tools: [{ name: 'a', input_schema: {} }], tool_choice: { type: 'tool', name: 'b' } },
        /tool 'b' not found/,
      ],
    ];
    for (const [body, message] of cases) {
      const parsed = parseMessagesRequest(body);
      assert.equal(parsed.ok, false, JSON.stringify(body));
      assert.match(parsed.ok ? '' : parsed.message, message);
    }
    assert.equal(parseMessagesRequest(base).ok, true);
  });
});

describe('buildAssistantMessage', () => {
  const answer = answerFor('record_invoice', 'Invoice No: A-1\nTotal: EUR 12.50');
  const build = (maxTokens: number) =>
    buildAssistantMessage({
      id: 'msg_1',
      toolUseId: 'toolu_1',
      model: 'sim-model',
      answer,
      input: { inputTokens: 33, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      maxTokens,
    });

  test('when the answer fits, then it is a tool_use with usage = ceil(JSON/4) + overhead', () => {
    const message = build(4096);
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content[0]?.type, 'tool_use');
    assert.ok(answer.kind === 'tool_use');
    const expected = Math.ceil(JSON.stringify(answer.input).length / 4) + OUTPUT_OVERHEAD_TOKENS;
    assert.deepEqual(message.usage, {
      input_tokens: 33,
      output_tokens: expected,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
  });

  test('when max_tokens is too small, then it stops at max_tokens without a tool_use', () => {
    const message = build(20);
    assert.equal(message.stop_reason, 'max_tokens');
    assert.deepEqual(message.content, []);
    assert.equal(message.usage.output_tokens, 20);
  });

  test('when the tool is unknown, then the model answers in text (end_turn)', () => {
    const text = answerFor('summarise_contract', 'anything');
    const message = buildAssistantMessage({
      id: 'm',
      toolUseId: 't',
      model: 'x',
      answer: text,
      input: { inputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      maxTokens: 500,
    });
    assert.equal(message.stop_reason, 'end_turn');
    assert.match(
      message.content[0]?.type === 'text' ? message.content[0].text : '',
      /only knows the tools classify_document, record_invoice\b.*\bsummarise_tickets, write_digest_narrative\b/,
    );
    assert.equal(message.usage.output_tokens, outputTokensOf(text));
  });
});

describe('malform', () => {
  test('when a record_invoice answer is malformed, then it breaks the extraction schema (string amount, no confidence)', () => {
    const good = answerFor('record_invoice', 'Invoice No: A-1\nTotal: EUR 12.50');
    assert.ok(good.kind === 'tool_use');
    assert.deepEqual(extractionSchemaErrors(good.input), []);
    const bad = malform(good);
    assert.ok(bad.kind === 'tool_use');
    const errors = extractionSchemaErrors(bad.input);
    assert.ok(
      errors.some((error) => error.includes('/invoice/totalAmount')),
      errors.join('; '),
    );
    assert.ok(
      errors.some((error) => error.includes("must have required property 'confidence'")),
      errors.join('; '),
    );
  });

  test('when a classify_document answer is malformed, then it breaks the classification schema', () => {
    const good = answerFor('classify_document', 'INVOICE\nInvoice No: A-1\nTotal: EUR 12.50');
    const bad = malform(good);
    assert.ok(good.kind === 'tool_use' && bad.kind === 'tool_use');
    assert.deepEqual(classificationSchemaErrors(good.input), []);
    assert.notDeepEqual(classificationSchemaErrors(bad.input), []);
  });
});

describe('score_order', () => {
  const order = {
    order: { id: 'o', totalAmount: 80, currency: 'EUR', itemCount: 1 },
    customer: { id: 'c', accountAgeDays: 900, previousOrders: 20, previousChargebacks: 0 },
    payment: { method: 'card', billingCountry: 'DE', cardCountry: 'DE', cvvMatch: true, avsMatch: true },
    shipping: { country: 'DE', expedited: false },
  };
  const scored = (facts: unknown) => {
    const answer = answerFor('score_order', typeof facts === 'string' ? facts : JSON.stringify(facts));
    assert.equal(answer.kind, 'tool_use');
    const input = (answer as { input: { score: number; decision: string; reasons: string[] } }).input;
    assert.deepEqual(validateAgainst(OrderScoreProposal, input).ok, true, JSON.stringify(input));
    return input;
  };

  test('when the facts are clean, risky or in between, then the answer is approve, decline or review, each schema-valid', () => {
    assert.equal(scored(order).decision, 'approve');
    assert.equal(scored({ ...order, customer: { ...order.customer, accountAgeDays: 7, previousOrders: 0 }, shipping: { country: 'FR', expedited: false } }).decision, 'review');
    const risky = scored({ ...order, customer: { ...order.customer, previousChargebacks: 2 }, payment: { ...order.payment, cvvMatch: false, cardCountry: 'US' } });
    assert.equal(risky.decision, 'decline');
    assert.ok(risky.reasons.includes('CVV check failed'));
  });

  test('when the order is not JSON, then the model says review rather than guessing', () => {
    const unreadable = scored('{ not json');
    assert.equal(unreadable.decision, 'review');
    assert.deepEqual(unreadable.reasons, ['the order could not be read']);
  });
});
