import { defineJobType } from '../job-type';
import { OrderScoreInput, OrderScoreProposal, OrderScoreResult } from './order-score';

/** The single-step type: one model call scores an order; the grey zone goes to a person. docs/job-types.md. */
export const orderScoreJobType = defineJobType({
  name: 'order.score',
  summary: 'An order (JSON: order, customer, payment, shipping) scored for fraud risk: approve, decline or review.',
  input: { kind: 'json', schema: OrderScoreInput, description: 'The order’s facts at checkout.' },
  workflowType: 'orderScoreWorkflow',
  priorities: ['interactive', 'bulk'],
  defaultPriority: 'interactive',
  steps: ['scoreOrder'],
  result: OrderScoreResult,
  proposal: OrderScoreProposal,
  review: { kind: 'score-band', approveBelow: 0.3, declineFrom: 0.7 },
  webhook: { includesResult: true },
  reviewer: {
    title: 'Order score',
    showsDocument: false,
    namedBy: 'order.id',
    sections: [
      {
        heading: 'Model',
        from: 'proposal',
        fields: [
          { label: 'Risk score', path: 'score', format: 'score' },
          { label: 'Model’s call', path: 'decision' },
          { label: 'Reasons', path: 'reasons', format: 'list' },
        ],
      },
      {
        heading: 'Order',
        from: 'input',
        fields: [
          { label: 'Order', path: 'order.id' },
          { label: 'Total', path: 'order.totalAmount' },
          { label: 'Currency', path: 'order.currency' },
          { label: 'Items', path: 'order.itemCount' },
          { label: 'Customer', path: 'customer.id' },
          { label: 'Account age (days)', path: 'customer.accountAgeDays' },
          { label: 'Previous orders', path: 'customer.previousOrders' },
          { label: 'Previous chargebacks', path: 'customer.previousChargebacks' },
          { label: 'Payment method', path: 'payment.method' },
          { label: 'Billing country', path: 'payment.billingCountry' },
          { label: 'Card country', path: 'payment.cardCountry' },
          { label: 'CVV matched', path: 'payment.cvvMatch', format: 'yes-no' },
          { label: 'Address check matched', path: 'payment.avsMatch', format: 'yes-no' },
          { label: 'Ships to', path: 'shipping.country' },
          { label: 'Expedited', path: 'shipping.expedited', format: 'yes-no' },
        ],
      },
    ],
  },
});
