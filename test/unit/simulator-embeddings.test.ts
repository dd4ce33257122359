import assert from '../support/assert';
import { afterEach, beforeEach, describe, test } from '@jest/globals';
import { embeddingOf } from '../../local/simulator/embeddings/embedding-vector';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { answerFor } from '../../local/simulator/model';
import { validateChunkSummary, validateDocumentSummary } from '../../common/validation';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe('embeddingOf', () => {
  test('when the same text is embedded twice, then the vectors are equal and of unit length', () => {
    const a = embeddingOf('Quarterly revenue grew in Europe.', 256);
    assert.deepEqual(a, embeddingOf('Quarterly revenue grew in Europe.', 256));
    assert.equal(a.length, 256);
    assert.ok(Math.abs(cosine(a, a) - 1) < 1e-4);
  });

  test('when texts share words, then they are closer than texts that share none', () => {
    const base = embeddingOf('revenue grew in europe and asia this quarter', 1024);
    const near = embeddingOf('revenue grew in europe this year', 1024);
    const far = embeddingOf('the turbine blades need inspection', 1024);
    assert.ok(cosine(base, near) > cosine(base, far) + 0.3);
  });
});

describe('POST /v1/embeddings', () => {
  let simulator: RunningSimulator;
  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, embedLatencyBaseMs: 0, embedLatencyPerThousandTokensMs: 0, embedTokensPerMinute: 100 });
  });
  afterEach(() => simulator.close());

  const post = (body: unknown, key: string | null = 'k') =>
    fetch(`${simulator.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });

  test('when inputs are sent, then the answer has Voyage AI’s shape: a list of embeddings by index, the model and total_tokens', async () => {
    const response = await post({ input: ['abcdefgh', 'wxyz'], model: 'voyage-3.5', input_type: 'document', output_dimension: 256 });
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      object: string;
      data: Array<{ object: string; embedding: number[]; index: number }>;
      model: string;
      usage: { total_tokens: number };
    };
    assert.equal(body.object, 'list');
    assert.deepEqual(body.data.map((item) => [item.object, item.index, item.embedding.length]), [
      ['embedding', 0, 256],
      ['embedding', 1, 256],
    ]);
    assert.deepEqual(body.data[1]?.embedding, embeddingOf('wxyz', 256));
    assert.equal(body.model, 'voyage-3.5');
    assert.equal(body.usage.total_tokens, 3);
  });

  test('when no Bearer key is sent, then it answers 401 with a detail', async () => {
    const response = await post({ input: 'x', model: 'voyage-3.5' }, null);
    assert.equal(response.status, 401);
    assert.match(((await response.json()) as { detail: string }).detail, /API key/);
  });

  test('when the request is malformed, then it answers 400 saying what is wrong', async () => {
    const response = await post({ input: [], model: 'voyage-3.5' });
    assert.equal(response.status, 400);
    const dimension = await post({ input: 'x', model: 'voyage-3.5', output_dimension: 100 });
    assert.match(((await dimension.json()) as { detail: string }).detail, /output_dimension/);
  });

  test('when its own tokens per minute run out, then it answers 429 with retry-after, while the Messages API is untouched', async () => {
    const text = 'x'.repeat(360); // 90 tokens of a 100-token minute
    assert.equal((await post({ input: text, model: 'voyage-3.5' })).status, 200);
    const limited = await post({ input: text, model: 'voyage-3.5' });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(((await limited.json()) as { detail: string }).detail, /TPM/);
    const stats = (await (await fetch(`${simulator.url}/_sim/embeddings/stats`)).json()) as { byStatus: Record<string, number> };
    assert.deepEqual(stats.byStatus, { 200: 1, 429: 1 });
    const messages = (await (await fetch(`${simulator.url}/_sim/stats`)).json()) as { requests: number };
    assert.equal(messages.requests, 0);
  });
});

describe('POST /v1/embeddings at its per-request limits', () => {
  let simulator: RunningSimulator;
  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, embedLatencyBaseMs: 0, embedLatencyPerThousandTokensMs: 0, embedTokensPerMinute: 100_000_000 });
  });
  afterEach(() => simulator.close());

  const post = (input: string[], model = 'voyage-3.5') =>
    fetch(`${simulator.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ input, model, output_dimension: 256 }),
    });
  const detailOf = async (response: Response) => ((await response.json()) as { detail: string }).detail;

  test('when a request holds 1,000 inputs, then each gets its vector; at 1,001 it is refused with a 400 naming the batch size', async () => {
    const full = await post(Array.from({ length: 1_000 }, (_, index) => `input ${index}`));
    assert.equal(full.status, 200);
    assert.equal(((await full.json()) as { data: unknown[] }).data.length, 1_000);
    const over = await post(Array.from({ length: 1_001 }, (_, index) => `input ${index}`));
    assert.equal(over.status, 400);
    assert.match(await detailOf(over), /batch size limit is 1000/);
  });

  test('when the inputs hold more tokens than the model allows a request, then it is refused; a lighter model takes the same request', async () => {
    // Ten inputs of 32,000 tokens (each at the context length) are voyage-3.5's 320K exactly; one more token passes it.
    const atLimit = Array.from({ length: 10 }, () => 'x'.repeat(128_000));
    assert.equal((await post(atLimit)).status, 200);
    const past = [...atLimit, 'abcd'];
    const refused = await post(past);
    assert.equal(refused.status, 400);
    assert.match(await detailOf(refused), /320000/);
    assert.equal((await post(past, 'voyage-3.5-lite')).status, 200);
    assert.equal((await post(atLimit, 'voyage-3-large')).status, 400);
  });
});

describe('the summary tools', () => {
  test('when a chunk is summarised, then the answer is deterministic, schema-valid and taken from the text', () => {
    const text = 'The turbine program started in 2019. It produced 40 units. Maintenance costs fell sharply afterwards.';
    const answer = answerFor('summarize_chunk', text);
    assert.equal(answer.kind, 'tool_use');
    assert.deepEqual(answer, answerFor('summarize_chunk', text));
    const input = answer.kind === 'tool_use' ? answer.input : undefined;
    const checked = validateChunkSummary(input);
    assert.ok(checked.ok);
    if (checked.ok) assert.match(checked.value.summary, /^The turbine program started in 2019\./);
  });

  test('when the document is summarised from chunk summaries, then the summary draws on them and is schema-valid', () => {
    const lines = ['[chunk 0 (pages 1–3)] Annual report of the Northwind turbine program.', '[chunk 1 (pages 4–6)] Costs fell in 2024.'];
    const answer = answerFor('summarize_document', lines.join('\n'));
    const checked = validateDocumentSummary(answer.kind === 'tool_use' ? answer.input : undefined);
    assert.ok(checked.ok);
    if (checked.ok) {
      assert.match(checked.value.title, /Northwind turbine program/);
      assert.match(checked.value.summary, /Costs fell in 2024/);
    }
  });
});
