import type { IncomingHttpHeaders } from 'node:http';
import { jsonReply, type HttpReply } from '../http-reply';
import type { SimulatorState } from '../state';
import { tokensForChars } from '../token-count';
import { embeddingOf } from './embedding-vector';
import { MAX_INPUT_TOKENS, maxTotalTokens, parseEmbeddingsRequest } from './embeddings-request';

export interface EmbeddingsCall {
  state: SimulatorState;
  headers: IncomingHttpHeaders;
  body: unknown;
  sleep: (ms: number) => Promise<void>;
  clientGone: () => boolean;
}

/** Voyage AI answers errors as `{ "detail": "<message>" }`, not in the Messages API's error envelope. */
function detail(status: number, message: string, headers: Record<string, string> = {}): HttpReply {
  return jsonReply(status, { detail: message }, headers);
}

function bearerKey(headers: IncomingHttpHeaders): string {
  const raw = headers.authorization;
  const value = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  return /^Bearer\s+(\S+)/i.exec(value.trim())?.[1] ?? '';
}

/**
 * `POST /v1/embeddings` in the shape of Voyage AI's API: Bearer key, `input` list, deterministic vectors, usage in
 * `total_tokens`, its own requests and tokens per minute with 429 and `retry-after`, latency that grows with the
 * tokens embedded.
 */
export async function handleEmbeddings(call: EmbeddingsCall): Promise<HttpReply> {
  const { state } = call;
  const stats = state.embeddingStats;
  stats.requests += 1;
  const reply = (answer: HttpReply): HttpReply => {
    stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1;
    return answer;
  };
  if (bearerKey(call.headers) === '') {
    return reply(detail(401, 'Provided API key is invalid. Send it as Authorization: Bearer <key>.'));
  }
  const parsed = parseEmbeddingsRequest(call.body);
  if (!parsed.ok) return reply(detail(400, parsed.message));
  const request = parsed.value;
  const perInput = request.inputs.map((input) => tokensForChars(input.length));
  if (!request.truncation && perInput.some((tokens) => tokens > MAX_INPUT_TOKENS)) {
    return reply(detail(400, `An input is longer than the context length of ${MAX_INPUT_TOKENS} tokens.`));
  }
  const tokens = perInput.reduce((sum, count) => sum + Math.min(count, MAX_INPUT_TOKENS), 0);
  const maxTokens = maxTotalTokens(request.model);
  if (tokens > maxTokens) {
    return reply(detail(400, `The total number of tokens in the list is ${tokens}; the limit for ${request.model} is ${maxTokens}.`));
  }
  const admission = state.embeddingsLimiter.admit(tokens);
  if (!admission.admitted) {
    const limit =
      admission.limit === 'TPM'
        ? `${state.settings.embedTokensPerMinute} tokens per minute (TPM)`
        : `${state.settings.embedRequestsPerMinute} requests per minute (RPM)`;
    return reply(
      detail(429, `You have exceeded your ${limit} rate limit. Retry after ${admission.retryAfterSeconds} s.`, {
        'retry-after': String(admission.retryAfterSeconds),
      }),
    );
  }
  await call.sleep(state.settings.embedLatencyBaseMs + (state.settings.embedLatencyPerThousandTokensMs * tokens) / 1000);
  stats.tokens += tokens;
  if (call.clientGone()) stats.undeliveredTokens += tokens;
  return reply(
    jsonReply(200, {
      object: 'list',
      data: request.inputs.map((input, index) => ({
        object: 'embedding',
        embedding: embeddingOf(input, request.outputDimension),
        index,
      })),
      model: request.model,
      usage: { total_tokens: tokens },
    }),
  );
}
