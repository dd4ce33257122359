import type { OrderScoreInput, OrderScoreProposal as Proposal } from '../../common/job-types/order-score/order-score';
import type { Usage } from '../../common/job';
import type { JobContext } from '../step-contracts';

export interface ScoreOrderInput extends JobContext {
  order: OrderScoreInput;
}

/** Schema-invalid output is a result, like the invoice extraction's: the workflow sends it to a person. */
export type ScoreOrderResult =
  | { outcome: 'valid'; proposal: Proposal; usage: Usage; attempt: number }
  | { outcome: 'schema_invalid'; errors: string[]; usage: Usage; attempt: number };
