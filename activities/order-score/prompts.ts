import { type OrderScoreInput, OrderScoreProposal } from '../../common/job-types/order-score/order-score';
import type { ToolSpec } from '../../gateway/model-call';

export const SCORE_ORDER_SYSTEM =
  'You assess online orders for payment fraud for a shop’s risk team. Weigh the customer’s history, the payment ' +
  'checks and where the goods go. Score the risk from 0 (certainly fine) to 1 (certainly fraud), decide approve, ' +
  'review or decline, and give short reasons a person can check. Answer only through the score_order tool.';
export const SCORE_ORDER_INSTRUCTION = 'Score the order above.';
export const SCORE_ORDER_TOOL: ToolSpec = {
  name: 'score_order',
  description: 'Record the order’s fraud risk score (0 to 1), the decision and the reasons.',
  inputSchema: OrderScoreProposal as unknown as Record<string, unknown>,
};
/** A score and a few reasons: a short answer, so a small output budget keeps the reservation small. */
export const SCORE_ORDER_MAX_TOKENS = 512;

export const SCORE_ORDER_PROMPT = {
  system: SCORE_ORDER_SYSTEM,
  instruction: SCORE_ORDER_INSTRUCTION,
  tool: SCORE_ORDER_TOOL,
  maxTokens: SCORE_ORDER_MAX_TOKENS,
};

/** The order as the model reads it. */
export function orderText(order: OrderScoreInput): string {
  return JSON.stringify(order, null, 2);
}
