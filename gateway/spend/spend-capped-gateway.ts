import { mediaTokenEstimate } from '../../common/model-media';
import type { ModelPrice } from '../../lib/config';
import { citationPromptCharacters } from '../citation-params';
import { answerModeOf, messageParams, promptCharactersOf } from '../message-params';
import type { ModelGateway, ToolCallRequest } from '../model-call';
import { costOf } from '../pricing';
import { InputTokenEstimator } from '../token-estimate';
import type { TenantSpend } from './tenant-spend';

export type { SpendEvent } from './tenant-spend';

/**
 * The most a call can cost at the live price: every input token priced as a cache write (the dearest kind) and all
 * of max_tokens — an upper bound but for the input estimate. The batch lane holds this times BATCH_PRICE_FACTOR.
 */
export function mostItCostsOf(
  request: Pick<ToolCallRequest, 'model' | 'maxTokens' | 'documentMedia'>,
  characters: number,
  price: ModelPrice | undefined,
  estimator: InputTokenEstimator = new InputTokenEstimator(),
): number {
  return costOf(
    {
      inputTokens: 0,
      cacheCreationInputTokens:
        estimator.estimate(request.model, characters) + (request.documentMedia ? mediaTokenEstimate(request.documentMedia) : 0),
      outputTokens: request.maxTokens,
    },
    price,
  );
}

/**
 * The model gateway behind each tenant's spend caps (gateway/spend/tenant-spend.ts): a call is admitted only when
 * the most it can cost fits, then settled to its real cost. A refused call never reaches the token budget or the
 * provider. Calls without a tenant (benchmarks, tools) pass through uncounted.
 */
export function withSpendCaps(
  inner: ModelGateway,
  deps: {
    spend: TenantSpend;
    prices: Record<string, ModelPrice>;
    /** As the inner gateway has them: a constrained request is measured as it is sent. */
    constrainedModels?: readonly string[];
  },
): ModelGateway {
  const estimator = new InputTokenEstimator();
  const mostItCosts = (request: ToolCallRequest, characters: number) =>
    mostItCostsOf(request, characters, deps.prices[request.model], estimator);

  return {
    async callTool(request) {
      const { tenantId } = request;
      if (tenantId === undefined) return inner.callTool(request);
      const characters = promptCharactersOf(messageParams(request, answerModeOf(request.model, deps.constrainedModels)));
      return deps.spend.spend(tenantId, {
        mostItCosts: () => mostItCosts(request, characters),
        run: () => inner.callTool(request),
        costOf: (result) => {
          const { usage } = result;
          // As in the gateway: a scan's tokens are its pixels, not its characters.
          if (!request.documentMedia) {
            estimator.learn(request.model, characters, usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens);
          }
          return usage.costUsd;
        },
      });
    },
    ...(inner.citeDocument ? { citeDocument: citeWithinCaps(inner.citeDocument.bind(inner)) } : {}),
  };

  /** A citation call is admitted and settled like a tool call: it is billed the same way. */
  function citeWithinCaps(cite: NonNullable<ModelGateway['citeDocument']>): NonNullable<ModelGateway['citeDocument']> {
    return async (request) => {
      const { tenantId } = request;
      if (tenantId === undefined) return cite(request);
      return deps.spend.spend(tenantId, {
        mostItCosts: () => mostItCostsOf(request, citationPromptCharacters(request), deps.prices[request.model], estimator),
        run: () => cite(request),
        costOf: (result) => result.usage.costUsd,
      });
    };
  }
}
