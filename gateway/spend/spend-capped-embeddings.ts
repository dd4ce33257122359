import type { EmbeddingsGateway } from '../embeddings/embeddings-call';
import { costOf } from '../pricing';
import { InputTokenEstimator } from '../token-estimate';
import type { TenantSpend } from './tenant-spend';

/**
 * The embeddings gateway behind each tenant's spend caps, through the same admit/settle as the model gateway
 * (gateway/spend/tenant-spend.ts): the most a call can cost is its inputs' estimated tokens at the embeddings
 * price (there is no output to bound), settled to the billed `total_tokens`. Calls without a tenant pass through.
 */
export function withEmbeddingsSpendCaps(
  inner: EmbeddingsGateway,
  deps: { spend: TenantSpend; model: string; pricePerMTok: number },
): EmbeddingsGateway {
  const estimator = new InputTokenEstimator();
  const price = { inputPerMTok: deps.pricePerMTok, outputPerMTok: 0 };
  return {
    async embed(request) {
      const { tenantId } = request;
      if (tenantId === undefined) return inner.embed(request);
      const characters = request.inputs.reduce((sum, input) => sum + input.length, 0);
      return deps.spend.spend(tenantId, {
        mostItCosts: () => costOf({ inputTokens: estimator.estimate(deps.model, characters), outputTokens: 0 }, price),
        run: () => inner.embed(request),
        costOf: (result) => {
          estimator.learn(deps.model, characters, result.usage.inputTokens);
          return result.usage.costUsd;
        },
      });
    },
  };
}
