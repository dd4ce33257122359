import { Context } from '@temporalio/activity';
import type { OrderScoreInput } from '../../common/job-types/order-score/order-score';
import { OrderScoreProposal } from '../../common/job-types/order-score/order-score';
import type { FromBatch } from '../../common/batch-lane';
import { validateAgainst } from '../../common/validation';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import type { ModelGateway, ToolCallResult } from '../../gateway/model-call';
import type { BatchLaneDeps } from '../batch-lane/batch-lane-deps';
import { firstCallFromBatch } from '../batch-lane/first-call-from-batch';
import { askWithRepairs, type ModelDocument, toolCallOf } from '../call-model-on-text';
import type { ScoreOrderInput, ScoreOrderResult } from './contracts';
import { orderText, SCORE_ORDER_PROMPT, SCORE_ORDER_TOOL } from './prompts';

const orderDocument = (order: OrderScoreInput): ModelDocument => ({ documentText: orderText(order) });

export interface ScoreOrderDeps {
  gateway: ModelGateway;
  model: string;
  repairTries: number;
  /** The Message Batches lane, where a bulk order's first call may have been answered (`fromBatch`). */
  lane?: BatchLaneDeps;
}

/** The order's first scoring call: what scoreOrder sends live, and what its batch entry carries (enqueueBatchEntry). */
export function scoreOrderCall(deps: Pick<ScoreOrderDeps, 'model'>, input: ScoreOrderInput): BatchToolCall {
  return toolCallOf(deps, input, orderDocument(input.order), SCORE_ORDER_PROMPT);
}

/**
 * Scores the order with one model call through the gateway (more when the answer fails the schema:
 * activities/repair-loop.ts), or checks the first answer the batch lane brought and repairs it live when needed.
 */
export async function scoreOrderWith(deps: ScoreOrderDeps, input: ScoreOrderInput, firstAnswer?: ToolCallResult): Promise<ScoreOrderResult> {
  const { attempt } = Context.current().info;
  const { call, checked, usage } = await askWithRepairs(
    deps,
    input,
    orderDocument(input.order),
    SCORE_ORDER_PROMPT,
    (toolInput) => validateAgainst(OrderScoreProposal, toolInput),
    firstAnswer,
  );
  if (!checked.ok) {
    const reason = call.toolInput === undefined ? [`no ${SCORE_ORDER_TOOL.name} call (stop reason ${call.stopReason})`] : [];
    return { outcome: 'schema_invalid', errors: [...reason, ...checked.errors], usage, attempt };
  }
  return { outcome: 'valid', proposal: checked.value, usage, attempt };
}

export function createScoreOrder(deps: ScoreOrderDeps) {
  /**
   * Heartbeats carry a cancel to the call, which is aborted. On its first attempt a bulk order's first answer comes
   * from the batch lane when the job took it (`fromBatch`), checked like a live one.
   */
  return async function scoreOrder(input: ScoreOrderInput & FromBatch): Promise<ScoreOrderResult> {
    const first = await firstCallFromBatch(deps.lane, input, { model: deps.model, tool: SCORE_ORDER_TOOL });
    return scoreOrderWith(deps, input, first);
  };
}
