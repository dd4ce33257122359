import { type Static, Type } from '@sinclair/typebox';
import { closed, stringEnum } from '../../api-contract/schema-kit';
import type { ScoreBand } from '../job-type';

/** An order's facts as a shop knows them at checkout: the body of an `order.score` job. */
export const OrderScoreInput = closed({
  order: closed({
    id: Type.String({ minLength: 1, maxLength: 128 }),
    totalAmount: Type.Number({ minimum: 0 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    itemCount: Type.Integer({ minimum: 1 }),
  }),
  customer: closed({
    id: Type.String({ minLength: 1, maxLength: 128 }),
    accountAgeDays: Type.Integer({ minimum: 0 }),
    previousOrders: Type.Integer({ minimum: 0 }),
    previousChargebacks: Type.Integer({ minimum: 0 }),
  }),
  payment: closed({
    method: stringEnum(['card', 'paypal', 'bank_transfer', 'crypto'] as const),
    billingCountry: Type.String({ pattern: '^[A-Z]{2}$' }),
    cardCountry: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    cvvMatch: Type.Optional(Type.Boolean()),
    avsMatch: Type.Optional(Type.Boolean()),
  }),
  shipping: closed({
    country: Type.String({ pattern: '^[A-Z]{2}$' }),
    expedited: Type.Boolean(),
  }),
});
export type OrderScoreInput = Static<typeof OrderScoreInput>;

export const MODEL_DECISIONS = ['approve', 'review', 'decline'] as const;
export const FINAL_DECISIONS = ['approve', 'decline'] as const;

/** What the model answers (the `score_order` tool's schema): its risk score, its call, and why. */
export const OrderScoreProposal = closed({
  score: Type.Number({ minimum: 0, maximum: 1, description: 'Fraud risk: 0 is certainly fine, 1 certainly fraud.' }),
  decision: stringEnum(MODEL_DECISIONS),
  reasons: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 10 }),
});
export type OrderScoreProposal = Static<typeof OrderScoreProposal>;

/** The job's result: the decision that stands, and who took it. */
export const OrderScoreResult = closed({
  score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Absent when the model gave no valid answer and a person decided.' })),
  decision: stringEnum(FINAL_DECISIONS),
  reasons: Type.Array(Type.String()),
  decidedBy: stringEnum(['model', 'reviewer'] as const),
});
export type OrderScoreResult = Static<typeof OrderScoreResult>;

/**
 * What happens to a scored order under the deployment's band: below `approveBelow` approve, from `declineFrom`
 * decline, between them (the grey zone) a person decides. A model whose own call disagrees with its score's band
 * (or that says review) is unsure, so a person decides then too.
 */
export function decisionOf(proposal: OrderScoreProposal, band: ScoreBand): (typeof MODEL_DECISIONS)[number] {
  const byScore = proposal.score < band.approveBelow ? 'approve' : proposal.score >= band.declineFrom ? 'decline' : 'review';
  return byScore === proposal.decision ? byScore : 'review';
}
