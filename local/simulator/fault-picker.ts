import type { FaultRuleBook, RequestFacts } from './fault-rules';
import type { Fault, FaultKind } from './faults';
import type { RuntimeSettings } from './options';
import type { Random } from './random';

export type FaultSource = 'header' | 'rule' | 'random';

export interface ChosenFault {
  fault: Fault;
  source: FaultSource;
}

type FaultRates = Pick<RuntimeSettings, 'rate429' | 'rate529' | 'rate500' | 'rateRefusal' | 'rateMalformed'>;

const RANDOM_KINDS: ReadonlyArray<[keyof FaultRates, FaultKind]> = [
  ['rate429', 'rate_limit'],
  ['rate529', 'overloaded'],
  ['rate500', 'server_error'],
  ['rateRefusal', 'refusal'],
  ['rateMalformed', 'malformed'],
];

/** One uniform draw per request, laid over the rates end to end, so a seeded run repeats draw for draw. */
export function drawRandomFault(rates: FaultRates, random: Random): Fault | null {
  const draw = random.next();
  let upper = 0;
  for (const [rate, kind] of RANDOM_KINDS) {
    upper += rates[rate];
    if (draw < upper) return { kind };
  }
  return null;
}

/**
 * The fault for one request: the request's own `x-sim-fault` header first (a test asked for exactly
 * this), then the first matching rule, then the run-level random rates.
 */
export function pickFault(input: {
  header: Fault | null;
  rules: FaultRuleBook;
  facts: RequestFacts;
  rates: FaultRates;
  random: Random;
}): ChosenFault | null {
  if (input.header) return { fault: input.header, source: 'header' };
  const ruled = input.rules.take(input.facts);
  if (ruled) return { fault: ruled, source: 'rule' };
  const drawn = drawRandomFault(input.rates, input.random);
  return drawn ? { fault: drawn, source: 'random' } : null;
}
