import { SlowlaneError, TenantSpendCapReachedError } from '../../common/errors';
import type { Usage } from '../../common/job';
import { mediaTokenEstimate } from '../../common/model-media';
import type { ModelPrice } from '../../lib/config';
import { messageParams, promptCharactersOf } from '../message-params';
import type { ModelGateway, ToolCallRequest } from '../model-call';
import { costOf } from '../pricing';
import { InputTokenEstimator } from '../token-estimate';
import type { SpendStore, SpentTotals } from './spend-store';
import { hasCap, type SpendCaps, type SpendWindow } from './spend-windows';

/** What the caps tell whoever listens (metrics). Listeners must not throw. */
export type SpendEvent =
  | { type: 'spent'; tenantId: string; costUsd: number; totals: SpentTotals }
  | { type: 'refused'; tenantId: string; window: SpendWindow; capUsd: number; spentUsd: number };

export interface SpendCapsDeps {
  store: SpendStore;
  /** Per tenant id; a tenant without an entry has no cap and its calls are still counted. */
  caps: Readonly<Record<string, SpendCaps>>;
  prices: Record<string, ModelPrice>;
  onEvent?: (event: SpendEvent) => void;
  now?: () => number;
}

/**
 * The gateway behind each tenant's spend caps: a call is admitted only when its most it can cost fits the tenant's
 * caps (SpendStore.hold), then settled to its real cost, whether it answered or was refused but billed. A refused
 * call never reaches the token budget or the provider; its step fails with TenantSpendCapReachedError carrying
 * when the window turns, and the workflow waits for that (workflows/spend-cap-wait.ts). Calls without a tenant
 * (benchmarks, tools) pass through uncounted.
 */
export function withSpendCaps(inner: ModelGateway, deps: SpendCapsDeps): ModelGateway {
  const now = deps.now ?? Date.now;
  const estimator = new InputTokenEstimator();
  const emit = (event: SpendEvent) => deps.onEvent?.(event);

  /** Every input token priced as a cache write (the dearest kind) and all of max_tokens: an upper bound but for the estimate. */
  const mostItCosts = (request: ToolCallRequest, characters: number): number =>
    costOf(
      {
        inputTokens: 0,
        cacheCreationInputTokens:
          estimator.estimate(request.model, characters) + (request.documentMedia ? mediaTokenEstimate(request.documentMedia) : 0),
        outputTokens: request.maxTokens,
      },
      deps.prices[request.model],
    );

  return {
    async callTool(request) {
      const { tenantId } = request;
      if (tenantId === undefined) return inner.callTool(request);
      const caps = deps.caps[tenantId] ?? {};
      const characters = promptCharactersOf(messageParams(request));
      const held = await deps.store.hold(tenantId, caps, hasCap(caps) ? mostItCosts(request, characters) : 0, now());
      if (!held.granted) {
        emit({ type: 'refused', tenantId, window: held.window, capUsd: held.capUsd, spentUsd: held.spentUsd });
        throw new TenantSpendCapReachedError(
          `tenant ${tenantId} has spent ${held.spentUsd.toFixed(4)} of its ${held.window === 'day' ? 'daily' : 'monthly'} cap of ${held.capUsd} USD; the job waits until ${new Date(held.resumesAt).toISOString()} or the cap is raised`,
          { details: { spendCap: { window: held.window, capUsd: held.capUsd, spentUsd: held.spentUsd, resumesAt: new Date(held.resumesAt).toISOString() } } },
        );
      }
      const settle = async (costUsd: number) => {
        const totals = await deps.store.settle(held.hold, costUsd, now());
        emit({ type: 'spent', tenantId, costUsd, totals });
      };
      let result;
      try {
        result = await inner.callTool(request);
      } catch (error) {
        await settle(billedCostOf(error));
        throw error;
      }
      const { usage } = result;
      // As in the gateway: a scan's tokens are its pixels, not its characters.
      if (!request.documentMedia) estimator.learn(request.model, characters, usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens);
      await settle(usage.costUsd);
      return result;
    },
  };
}

/** A failed call the provider billed anyway (a refusal) says so in its details (gateway/model-gateway.ts). */
function billedCostOf(error: unknown): number {
  if (!(error instanceof SlowlaneError)) return 0;
  const billed = error.details?.billedUsage as Usage | undefined;
  return billed?.costUsd ?? 0;
}
