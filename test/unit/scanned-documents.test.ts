import Anthropic, { APIError } from '@anthropic-ai/sdk';
import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { EXTRACT_INSTRUCTION, EXTRACT_MAX_TOKENS, EXTRACT_SYSTEM, EXTRACT_TOOL, CLASSIFY_TOOL } from '../../activities/invoice/prompts';
import { DocumentTooLargeError } from '../../common/errors';
import { imageSize, sniffImage } from '../../common/image-header';
import { overallConfidence, type InvoiceExtraction } from '../../common/invoice';
import {
  IMAGE_MAX_BYTES,
  IMAGE_TOKENS_MAX,
  MESSAGES_API_MEDIA_LIMITS,
  PDF_PAGE_TOKENS,
  SCANNED_PDF_MAX_BYTES,
  base64Length,
  mediaLimitProblem,
  mediaTokenEstimate,
} from '../../common/model-media';
import { validateExtraction } from '../../common/validation';
import { mediaBlock, messageParams, promptCharactersOf } from '../../gateway/message-params';
import type { ToolCallRequest } from '../../gateway/model-call';
import { sniffContentType } from '../../api/sniff-content-type';
import { countInputTokens } from '../../local/simulator/token-count';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { type BudgetSettings, DEFAULT_POOL } from '../../gateway/budget/token-budget';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { createLogger } from '../../lib/logger';
import { localTestConfig } from '../support/test-credentials';
import { jpegHeadOf, pngOf, scannedPdfOf } from '../support/scans';

function scanCall(media: ToolCallRequest['documentMedia'], tool = EXTRACT_TOOL): ToolCallRequest {
  return {
    jobId: 'invoice:test:scan',
    priority: 'interactive',
    model: 'claude-sonnet-4-6',
    system: EXTRACT_SYSTEM,
    documentText: '',
    ...(media ? { documentMedia: media } : {}),
    instruction: EXTRACT_INSTRUCTION,
    tool,
    maxTokens: EXTRACT_MAX_TOKENS,
  };
}

describe('image headers', () => {
  test('when the bytes are a PNG or a JPEG, then the kind and size come from the header, whatever the name', () => {
    assert.equal(sniffImage(pngOf(3, 2)), 'image/png');
    assert.deepEqual(imageSize(pngOf(321, 123)), { width: 321, height: 123 });
    assert.equal(sniffImage(jpegHeadOf(10, 10)), 'image/jpeg');
    assert.deepEqual(imageSize(jpegHeadOf(9001, 40)), { width: 9001, height: 40 });
  });

  test('when the upload is sniffed, then PNG and JPEG are told from PDF and text', () => {
    assert.equal(sniffContentType(pngOf(4, 4)), 'image/png');
    assert.equal(sniffContentType(jpegHeadOf(4, 4)), 'image/jpeg');
    assert.equal(sniffContentType(Buffer.from('%PDF-1.7\n')), 'application/pdf');
    assert.equal(sniffContentType(Buffer.from('GIF89a\u0001\u0000')), undefined);
  });
});

describe('the Messages API limits on scans', () => {
  test('when an image base64-encodes past 5 MB, then it is over the limit, and one byte less is not', () => {
    assert.ok(base64Length(IMAGE_MAX_BYTES) <= MESSAGES_API_MEDIA_LIMITS.imageMaxBase64Bytes);
    assert.ok(base64Length(IMAGE_MAX_BYTES + 3) > MESSAGES_API_MEDIA_LIMITS.imageMaxBase64Bytes);
    assert.equal(mediaLimitProblem({ mediaType: 'image/png', sizeBytes: IMAGE_MAX_BYTES, pages: 1 }), null);
    assert.match(mediaLimitProblem({ mediaType: 'image/png', sizeBytes: IMAGE_MAX_BYTES + 1, pages: 1 }) ?? '', /5 MB once base64-encoded/);
  });

  test('when an image is wider than 8000 px or a PDF has 101 pages, then the problem names the limit', () => {
    assert.match(mediaLimitProblem({ mediaType: 'image/jpeg', sizeBytes: 10, pages: 1, width: 8001, height: 10 }) ?? '', /8001x10 px.*8000x8000/);
    assert.equal(mediaLimitProblem({ mediaType: 'image/jpeg', sizeBytes: 10, pages: 1, width: 8000, height: 8000 }), null);
    assert.match(mediaLimitProblem({ mediaType: 'application/pdf', sizeBytes: 10, pages: 101 }) ?? '', /at most 100 scanned pages/);
    assert.equal(mediaLimitProblem({ mediaType: 'application/pdf', sizeBytes: 10, pages: 100 }), null);
  });

  test('when a scanned PDF with its base64 would not fit a 32 MB request, then it is over the limit', () => {
    assert.ok(base64Length(SCANNED_PDF_MAX_BYTES) < MESSAGES_API_MEDIA_LIMITS.requestMaxBytes);
    assert.match(mediaLimitProblem({ mediaType: 'application/pdf', sizeBytes: SCANNED_PDF_MAX_BYTES + 1, pages: 1 }) ?? '', /fit one model request/);
  });
});

describe('message params for a scan', () => {
  test('when the document is a PNG, then an image block with its base64 goes before the instruction, and no text document', () => {
    const png = pngOf(20, 10);
    const params = messageParams(scanCall({ mediaType: 'image/png', base64: png.toString('base64'), pages: 1 }));
    const content = params.messages[0]?.content as Anthropic.ContentBlockParam[];
    assert.deepEqual(content[0], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } });
    assert.deepEqual(content[1], { type: 'text', text: EXTRACT_INSTRUCTION });
    assert.ok(!JSON.stringify(params.messages).includes('<document>'));
  });

  test('when the document is a text-less PDF and more calls follow, then a cached document block carries it', async () => {
    const pdf = await scannedPdfOf(1);
    const params = messageParams({ ...scanCall({ mediaType: 'application/pdf', base64: pdf.toString('base64'), pages: 1 }), cacheDocument: true });
    const content = params.messages[0]?.content as Anthropic.ContentBlockParam[];
    assert.deepEqual(content[0], {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') },
      cache_control: { type: 'ephemeral' },
    });
  });

  test('when a scan is over the provider limit, then building the request throws DocumentTooLargeError (no request spent)', () => {
    const tooBig = Buffer.alloc(IMAGE_MAX_BYTES + 1).toString('base64');
    assert.throws(() => mediaBlock({ mediaType: 'image/jpeg', base64: tooBig, pages: 1 }), DocumentTooLargeError);
    assert.throws(() => messageParams(scanCall({ mediaType: 'application/pdf', base64: 'JVBERi0=', pages: 101 })), DocumentTooLargeError);
  });

  test('when the tokens of a scan are estimated, then the base64 is not counted as text but the pixels and pages are', () => {
    const png = pngOf(600, 400);
    const withImage = promptCharactersOf(messageParams(scanCall({ mediaType: 'image/png', base64: png.toString('base64'), pages: 1 })));
    const withoutImage = promptCharactersOf(messageParams(scanCall(undefined)));
    assert.ok(withImage - withoutImage < 200, `${withImage} vs ${withoutImage}`);
    assert.equal(mediaTokenEstimate({ mediaType: 'image/png', pages: 1 }), IMAGE_TOKENS_MAX);
    assert.equal(mediaTokenEstimate({ mediaType: 'application/pdf', pages: 3 }), 3 * PDF_PAGE_TOKENS);
  });
});

describe('the simulator on scans, through the real SDK', () => {
  let sim: RunningSimulator;
  let client: Anthropic;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
    client = new Anthropic({ apiKey: 'sim-test-key', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(async () => sim.close());

  async function ask(request: ToolCallRequest) {
    return client.messages.create({
      model: request.model,
      max_tokens: request.maxTokens,
      ...messageParams(request),
      tool_choice: { type: 'tool', name: request.tool.name },
    });
  }

  async function refusal(promise: Promise<unknown>): Promise<APIError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof APIError, String(error));
    return error;
  }

  test('when a PNG scan is sent, then the extraction fits the schema with zero confidence, and the image costs its pixels', async () => {
    const png = pngOf(300, 250);
    const message = await ask(scanCall({ mediaType: 'image/png', base64: png.toString('base64'), pages: 1 }));
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    const checked = validateExtraction(toolUse?.type === 'tool_use' ? toolUse.input : undefined);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.equal(overallConfidence(checked.value as InvoiceExtraction), 0);
    const textOnly = countInputTokens({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: EXTRACT_INSTRUCTION }] }], system: [{ type: 'text', text: EXTRACT_SYSTEM }], tools: [{ name: EXTRACT_TOOL.name, description: EXTRACT_TOOL.description, input_schema: EXTRACT_TOOL.inputSchema }] });
    assert.equal(message.usage.input_tokens - textOnly, Math.ceil((300 * 250) / 750));
  });

  test('when a scan is marked for the cache, then its prefix is cached by its pixels and a second call reads it', async () => {
    const png = pngOf(1000, 1000);
    const request = { ...scanCall({ mediaType: 'image/png', base64: png.toString('base64'), pages: 1 }), cacheDocument: true };
    const first = await ask(request);
    const second = await ask(request);
    // Only the instruction after the scan is outside the cached prefix, so only it stays fresh input (± rounding).
    const instructionTokens = Math.ceil(EXTRACT_INSTRUCTION.length / 4);
    assert.ok(Math.abs(first.usage.input_tokens - instructionTokens) <= 2, `${JSON.stringify(first.usage)} vs ${instructionTokens}`);
    assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
  });

  test('when a text-less PDF is classified, then the answer is a probable invoice with low confidence', async () => {
    const pdf = await scannedPdfOf(2);
    const message = await ask(scanCall({ mediaType: 'application/pdf', base64: pdf.toString('base64'), pages: 2 }, CLASSIFY_TOOL));
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    const input = (toolUse?.type === 'tool_use' ? toolUse.input : {}) as { documentType?: string; confidence?: number };
    assert.equal(input.documentType, 'invoice');
    assert.ok((input.confidence ?? 1) < 0.5);
  });

  function rawImage(mediaType: string, data: string): Anthropic.MessageCreateParamsNonStreaming {
    return {
      model: 'sim-model',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: mediaType as 'image/png', data } }, { type: 'text', text: 'Read.' }] }],
    };
  }

  test('when an image block is not what its media type says, is not base64, or is a kind the API does not read, then a 400 says so', async () => {
    const jpegAsPng = await refusal(client.messages.create(rawImage('image/png', jpegHeadOf(10, 10).toString('base64'))));
    assert.equal(jpegAsPng.status, 400);
    assert.match(jpegAsPng.message, /does not match the provided media type image\/png/);
    const notBase64 = await refusal(client.messages.create(rawImage('image/png', 'not base64!')));
    assert.match(notBase64.message, /invalid base64/);
    const tiff = await refusal(client.messages.create(rawImage('image/tiff', pngOf(2, 2).toString('base64'))));
    assert.match(tiff.message, /media_type: Input should be 'image\/jpeg'/);
  });

  test('when an image is past 5 MB of base64 or 8000 px, or a PDF past 100 pages, then the simulator refuses it as the API does', async () => {
    const big = Buffer.concat([pngOf(2, 2), Buffer.alloc(IMAGE_MAX_BYTES + 3)]).toString('base64');
    const tooBig = await refusal(client.messages.create(rawImage('image/png', big)));
    assert.match(tooBig.message, /image exceeds 5 MB maximum/);
    const wide = await refusal(client.messages.create(rawImage('image/jpeg', jpegHeadOf(8001, 10).toString('base64'))));
    assert.match(wide.message, /exceed max allowed size: 8000 pixels/);
    const pdf = await scannedPdfOf(101);
    const long = await refusal(
      client.messages.create({
        model: 'sim-model',
        max_tokens: 64,
        messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') } }] }],
      }),
    );
    assert.match(long.message, /maximum of 100 PDF pages/);
  });
});

describe('the gateway reserving for a scan', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
  });
  afterAll(async () => sim.close());

  function gateway() {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: sim.url });
    const settings: BudgetSettings = {
      pools: { [DEFAULT_POOL]: { inputTokensPerMinute: 1_000_000, outputTokensPerMinute: 1_000_000, requestsPerMinute: 1_000 } },
      interactiveShare: 0.25,
    };
    const reserved: number[] = [];
    const wired = createModelGateway({
      client: createAnthropicClient(config.anthropic),
      prices: config.anthropic.prices,
      log: createLogger('test', 'silent'),
      budget: { budget: new InProcessBudget(settings, () => Date.now()), settings },
      now: () => Date.now(),
      random: () => 0,
    });
    wired.events.subscribe((event) => {
      if (event.type === 'reserved') reserved.push(event.cost.input);
    });
    return { wired, reserved };
  }

  test('when a scan is called, then the reservation is the text estimate plus ~1,600 tokens for the image, and scans do not teach the text ratio', async () => {
    const png = pngOf(1200, 900);
    const media = { mediaType: 'image/png' as const, base64: png.toString('base64'), pages: 1 };
    const textOnly = gateway();
    await textOnly.wired.callTool(scanCall(undefined));
    const scans = gateway();
    await scans.wired.callTool(scanCall(media));
    await scans.wired.callTool(scanCall(media));
    const [withoutImage] = textOnly.reserved;
    const [first, second] = scans.reserved;
    assert.ok(withoutImage !== undefined && first !== undefined);
    // The image block's wrapper (type, source, media_type) is a few dozen characters of JSON.
    assert.ok(Math.abs(first - withoutImage - IMAGE_TOKENS_MAX) < 40, `${first} vs ${withoutImage} + ${IMAGE_TOKENS_MAX}`);
    assert.equal(second, first);
  });
});

