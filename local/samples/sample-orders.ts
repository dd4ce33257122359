import type { OrderScoreInput } from '../../common/job-types/order-score/order-score';

// Facts for order.score jobs (npm start's samples and the tests), scored by the simulator's rules (local/simulator/reader/score-order.ts).

/** A returning customer whose checks all pass: the simulator scores it 0 (approve). */
export function safeOrder(id: string): OrderScoreInput {
  return {
    order: { id, totalAmount: 80, currency: 'EUR', itemCount: 1 },
    customer: { id: `cus-${id}`, accountAgeDays: 900, previousOrders: 20, previousChargebacks: 0 },
    payment: { method: 'card', billingCountry: 'DE', cardCountry: 'DE', cvvMatch: true, avsMatch: true },
    shipping: { country: 'DE', expedited: false },
  };
}

/** A week-old account shipping abroad: 0.05 + 0.25 + 0.2 = 0.5, the grey zone. */
export function greyOrder(id: string): OrderScoreInput {
  const order = safeOrder(id);
  return { ...order, customer: { ...order.customer, accountAgeDays: 7, previousOrders: 0 }, shipping: { country: 'FR', expedited: false } };
}

/** Earlier chargebacks, a failed CVV and a foreign card: 0.05 + 0.35 + 0.25 + 0.15 = 0.8, declined by the model. */
export function riskyOrder(id: string): OrderScoreInput {
  const order = safeOrder(id);
  return {
    ...order,
    customer: { ...order.customer, previousOrders: 2, previousChargebacks: 1 },
    payment: { ...order.payment, cardCountry: 'US', cvvMatch: false },
  };
}

/** npm start's orders: one of each outcome the model reaches, named by what the simulator will decide. */
export const SAMPLE_ORDERS: ReadonlyArray<{ name: string; expected: string; input: OrderScoreInput }> = [
  { name: 'order-approve', expected: 'completed', input: safeOrder('sample-approve') },
  { name: 'order-review', expected: 'awaiting_review', input: greyOrder('sample-review') },
  { name: 'order-decline', expected: 'completed', input: riskyOrder('sample-decline') },
];
