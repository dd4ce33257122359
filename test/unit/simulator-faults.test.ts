import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { drawRandomFault, pickFault } from '../../local/simulator/fault-picker';
import { FaultRuleBook } from '../../local/simulator/fault-rules';
import { parseFaultHeader, parseFaultRuleInput } from '../../local/simulator/faults';
import { createRandom } from '../../local/simulator/random';

const NO_RATES = { rate429: 0, rate529: 0, rate500: 0, rateRefusal: 0, rateMalformed: 0 };
const facts = (documentText: string, tool = 'record_invoice') => ({ tool, model: 'sim-model', documentText });

describe('parseFaultHeader', () => {
  test('when the header names a kind with parameters, then they are read', () => {
    assert.deepEqual(parseFaultHeader('rate_limit;retry-after=7;delay-ms=250'), {
      ok: true,
      value: { kind: 'rate_limit', retryAfterSeconds: 7, delayMs: 250 },
    });
    assert.deepEqual(parseFaultHeader(' overloaded '), { ok: true, value: { kind: 'overloaded' } });
  });

  test('when the kind or a parameter is wrong, then it is refused with a reason', () => {
    const unknownKind = parseFaultHeader('meltdown');
    assert.equal(unknownKind.ok, false);
    assert.match(unknownKind.ok ? '' : unknownKind.message, /kind must be one of rate_limit/);
    const badValue = parseFaultHeader('slow;delay-ms=soon');
    assert.match(badValue.ok ? '' : badValue.message, /delay-ms needs an integer/);
    const badName = parseFaultHeader('slow;delay=5');
    assert.match(badName.ok ? '' : badName.message, /unknown parameter "delay"/);
  });
});

describe('parseFaultRuleInput', () => {
  test('when times is omitted, then the rule applies until removed', () => {
    assert.deepEqual(parseFaultRuleInput({ fault: { kind: 'refusal' } }), {
      ok: true,
      value: { match: {}, fault: { kind: 'refusal' }, times: null },
    });
  });

  test('when the body is invalid, then the message says which field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /fault: Field required/],
      [{ fault: { kind: 'nope' } }, /fault.kind must be one of/],
      [{ fault: { kind: 'slow', delayMs: -1 } }, /fault.delayMs/],
      [{ fault: { kind: 'slow' }, times: 0 }, /times must be a positive integer/],
      [{ fault: { kind: 'slow' }, match: { textIncludes: '' } }, /match.textIncludes/],
      [{ fault: { kind: 'slow' }, match: { jobId: 'x' } }, /unknown keys: jobId/],
    ];
    for (const [body, message] of cases) {
      const parsed = parseFaultRuleInput(body);
      assert.equal(parsed.ok, false, JSON.stringify(body));
      assert.match(parsed.ok ? '' : parsed.message, message);
    }
  });
});

describe('FaultRuleBook', () => {
  test('when a rule has times, then it applies that many times to matching requests only, then disappears', () => {
    const rules = new FaultRuleBook();
    rules.add({ match: { textIncludes: 'JOB-42' }, fault: { kind: 'overloaded' }, times: 2 });
    assert.equal(rules.take(facts('invoice for JOB-7')), null);
    assert.deepEqual(rules.take(facts('invoice for JOB-42')), { kind: 'overloaded' });
    assert.deepEqual(rules.take(facts('invoice for JOB-42')), { kind: 'overloaded' });
    assert.equal(rules.take(facts('invoice for JOB-42')), null);
    assert.deepEqual(rules.list(), []);
  });

  test('when several rules match, then the first added wins', () => {
    const rules = new FaultRuleBook();
    rules.add({ match: { tool: 'classify_document' }, fault: { kind: 'refusal' }, times: null });
    rules.add({ match: {}, fault: { kind: 'server_error' }, times: null });
    assert.deepEqual(rules.take(facts('x', 'classify_document')), { kind: 'refusal' });
    assert.deepEqual(rules.take(facts('x', 'record_invoice')), { kind: 'server_error' });
    assert.equal(rules.list()[0]?.hits, 1);
  });

  test('when a rule is removed by id, then it no longer applies', () => {
    const rules = new FaultRuleBook();
    const rule = rules.add({ match: {}, fault: { kind: 'malformed' }, times: null });
    assert.equal(rules.remove(rule.id), true);
    assert.equal(rules.remove(rule.id), false);
    assert.equal(rules.take(facts('x')), null);
  });
});

describe('pickFault', () => {
  test('when a header, a rule and random rates all apply, then the header wins, then the rule', () => {
    const rules = new FaultRuleBook();
    rules.add({ match: {}, fault: { kind: 'refusal' }, times: 1 });
    const random = createRandom(1);
    const everything = { ...NO_RATES, rate500: 1 };
    const fromHeader = pickFault({ header: { kind: 'slow' }, rules, facts: facts('x'), rates: everything, random });
    assert.deepEqual(fromHeader, { fault: { kind: 'slow' }, source: 'header' });
    const fromRule = pickFault({ header: null, rules, facts: facts('x'), rates: everything, random });
    assert.deepEqual(fromRule, { fault: { kind: 'refusal' }, source: 'rule' });
    const fromRates = pickFault({ header: null, rules, facts: facts('x'), rates: everything, random });
    assert.deepEqual(fromRates, { fault: { kind: 'server_error' }, source: 'random' });
  });

  test('when seeded, then the random faults repeat exactly; with rates at 0, there are none', () => {
    const rates = { ...NO_RATES, rate429: 0.2, rate529: 0.2, rateMalformed: 0.1 };
    const run = (seed: number): Array<string | null> => {
      const random = createRandom(seed);
      return Array.from({ length: 200 }, () => drawRandomFault(rates, random)?.kind ?? null);
    };
    assert.deepEqual(run(42), run(42));
    assert.notDeepEqual(run(42), run(43));
    const kinds = new Set(run(42));
    assert.deepEqual([...kinds].sort(), ['malformed', 'overloaded', 'rate_limit', null].sort());
    const none = createRandom(42);
    assert.ok(Array.from({ length: 200 }, () => drawRandomFault(NO_RATES, none)).every((fault) => fault === null));
  });
});
