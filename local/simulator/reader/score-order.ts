/**
 * The simulated model's fraud scorer: a fixed sum of risk signals read from the order JSON a worker sent, so a
 * test chooses its outcome by the facts it submits. A long-standing customer whose payment checks pass scores
 * low (approve); a new account shipping abroad sits in the grey zone (review); chargebacks or a failed CVV with
 * a mismatched card score high (decline). The thresholds match order.score's default band (0.3, 0.7).
 */

interface OrderFacts {
  order?: { totalAmount?: number };
  customer?: { accountAgeDays?: number; previousOrders?: number; previousChargebacks?: number };
  payment?: { method?: string; billingCountry?: string; cardCountry?: string; cvvMatch?: boolean; avsMatch?: boolean };
  shipping?: { country?: string; expedited?: boolean };
}

const SIGNALS: Array<{ weight: number; reason: string; applies: (facts: OrderFacts) => boolean }> = [
  { weight: 0.25, reason: 'new account (under 30 days)', applies: (f) => (f.customer?.accountAgeDays ?? 0) < 30 },
  { weight: 0.35, reason: 'earlier chargebacks', applies: (f) => (f.customer?.previousChargebacks ?? 0) > 0 },
  { weight: 0.2, reason: 'ships to another country than the billing address', applies: (f) => f.shipping?.country !== f.payment?.billingCountry },
  {
    weight: 0.15,
    reason: 'card issued in another country than the billing address',
    applies: (f) => f.payment?.cardCountry !== undefined && f.payment.cardCountry !== f.payment.billingCountry,
  },
  { weight: 0.25, reason: 'CVV check failed', applies: (f) => f.payment?.cvvMatch === false },
  { weight: 0.1, reason: 'address check failed', applies: (f) => f.payment?.avsMatch === false },
  { weight: 0.1, reason: 'paid in crypto', applies: (f) => f.payment?.method === 'crypto' },
  { weight: 0.1, reason: 'large order (over 1000)', applies: (f) => (f.order?.totalAmount ?? 0) > 1000 },
  { weight: 0.05, reason: 'expedited shipping', applies: (f) => f.shipping?.expedited === true },
];

const BASE_RISK = 0.05;
const LOYAL_DISCOUNT = 0.05;

export function scoreOrder(documentText: string): object {
  let facts: OrderFacts;
  try {
    facts = JSON.parse(documentText) as OrderFacts;
  } catch {
    return { score: 0.5, decision: 'review', reasons: ['the order could not be read'] };
  }
  const hits = SIGNALS.filter((signal) => signal.applies(facts));
  const loyal = (facts.customer?.previousOrders ?? 0) >= 5;
  const raw = BASE_RISK + hits.reduce((sum, signal) => sum + signal.weight, 0) - (loyal ? LOYAL_DISCOUNT : 0);
  const score = Math.round(Math.min(1, Math.max(0, raw)) * 100) / 100;
  const decision = score < 0.3 ? 'approve' : score >= 0.7 ? 'decline' : 'review';
  const reasons = hits.map((signal) => signal.reason);
  if (loyal) reasons.push('returning customer (5+ orders)');
  if (reasons.length === 0) reasons.push('no risk signals');
  return { score, decision, reasons };
}
