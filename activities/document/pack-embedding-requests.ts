import { ModelRequestInvalidError } from '../../common/errors';

/** The provider's per-request limits (lib/config/embeddings-settings.ts): inputs in the list, and their tokens. */
export interface EmbeddingRequestLimits {
  maxInputs: number;
  maxTokens: number;
}

export interface EmbeddingInput<K> {
  key: K;
  tokens: number;
}

/**
 * Packs inputs, in their order, into as few requests as the limits allow: a request closes when the next input
 * would pass either limit. An input whose tokens alone pass the per-request total cannot be sent at all (the
 * provider refuses the request), so it fails the step instead of costing a refused request.
 */
export function packEmbeddingRequests<K>(inputs: readonly EmbeddingInput<K>[], limits: EmbeddingRequestLimits): K[][] {
  const requests: K[][] = [];
  let current: K[] = [];
  let tokens = 0;
  for (const input of inputs) {
    if (input.tokens > limits.maxTokens) {
      throw new ModelRequestInvalidError(
        `an input of ${input.tokens} tokens passes the embeddings request limit of ${limits.maxTokens} tokens (EMBEDDINGS_MAX_TOKENS_PER_REQUEST)`,
        { details: { input: String(input.key), tokens: input.tokens, maxTokens: limits.maxTokens } },
      );
    }
    if (current.length > 0 && (current.length === limits.maxInputs || tokens + input.tokens > limits.maxTokens)) {
      requests.push(current);
      current = [];
      tokens = 0;
    }
    current.push(input.key);
    tokens += input.tokens;
  }
  if (current.length > 0) requests.push(current);
  return requests;
}
