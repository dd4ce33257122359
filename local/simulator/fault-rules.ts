import type { Fault, FaultMatch, FaultRuleInput } from './faults';

export interface FaultRule {
  id: string;
  match: FaultMatch;
  fault: Fault;
  /** Uses left; null = until removed. */
  remaining: number | null;
  hits: number;
}

/** What a rule can be matched against. */
export interface RequestFacts {
  tool: string | null;
  model: string;
  documentText: string;
}

function matches(match: FaultMatch, facts: RequestFacts): boolean {
  if (match.tool !== undefined && match.tool !== facts.tool) return false;
  if (match.model !== undefined && match.model !== facts.model) return false;
  if (match.textIncludes !== undefined && !facts.documentText.includes(match.textIncludes)) return false;
  return true;
}

/** Fault rules in the order they were added; the first matching rule applies and uses up one of its `times`. */
export class FaultRuleBook {
  private rules: FaultRule[] = [];
  private nextId = 1;

  add(input: FaultRuleInput): FaultRule {
    const rule: FaultRule = { id: `flt_${this.nextId}`, ...input, remaining: input.times, hits: 0 };
    this.nextId += 1;
    this.rules.push(rule);
    return rule;
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  take(facts: RequestFacts): Fault | null {
    const rule = this.rules.find((candidate) => matches(candidate.match, facts));
    if (!rule) return null;
    rule.hits += 1;
    if (rule.remaining !== null) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.remove(rule.id);
    }
    return rule.fault;
  }
}
