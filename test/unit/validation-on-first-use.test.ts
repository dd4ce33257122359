import assert from '../support/assert';
import { describe, jest, test } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import type AjvClass from 'ajv';
import type * as validation from '../../common/validation';
import type * as digestValidation from '../../common/job-types/tickets-digest/digest-validation';

type ValidationModule = typeof validation;
type DigestValidationModule = typeof digestValidation;

/** Every schema ajv compiles, counted on the real ajv (the modules under test load it on first use). */
let compileCount = 0;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the very ajv the modules under test will require
const Ajv = require('ajv') as { default: typeof AjvClass };
const compile = Ajv.default.prototype.compile;
Ajv.default.prototype.compile = function countedCompile(this: AjvClass, ...args: Parameters<AjvClass['compile']>) {
  compileCount++;
  return compile.apply(this, args);
} as AjvClass['compile'];

/**
 * Loads a fresh copy of `modulePath` (jest.isolateModules: nothing compiled by an earlier test) and counts the
 * schemas compiled from then on. The workflow sandbox evaluates the bundle's modules once per workflow run: what a
 * module compiles at import, every job pays for, so the count right after the import must stay 0.
 */
function loadCountingCompiles<M>(modulePath: string): { module: M; compiles: () => number } {
  const before = compileCount;
  let module: M | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy, loaded after the counter is in place
    module = require(modulePath) as M;
  });
  return { module: module as M, compiles: () => compileCount - before };
}

describe('schemas compiled on first use', () => {
  test('when common/validation is imported, then no schema is compiled; the first check compiles its schema once and still rejects bad input', () => {
    const { module, compiles } = loadCountingCompiles<ValidationModule>('../../common/validation');
    assert.equal(compiles(), 0, 'importing the module compiles nothing');

    const bad = module.validateInvoice({ invoiceNumber: 42 });
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && bad.errors.length > 0, 'the errors say what is wrong');
    assert.equal(compiles(), 1, 'only the schema that was used');

    module.validateInvoice({});
    assert.equal(compiles(), 1, 'a compiled schema is kept');

    assert.equal(module.validateClassification({ isInvoice: 'yes' }).ok, false);
    assert.equal(compiles(), 2);
  });

  test('when a job type’s TypeBox schema is checked twice, then it is compiled once and rejects what does not match', () => {
    const { module, compiles } = loadCountingCompiles<ValidationModule>('../../common/validation');
    const schema = Type.Object({ orderId: Type.String({ minLength: 1 }) }, { additionalProperties: false });
    assert.equal(module.validateAgainst(schema, { orderId: '' }).ok, false);
    assert.deepEqual(module.validateAgainst(schema, { orderId: 'o-1' }), { ok: true, value: { orderId: 'o-1' } });
    assert.equal(compiles(), 1);
  });

  test('when the tickets digest validators are imported, then nothing is compiled until one is called', () => {
    const { module, compiles } = loadCountingCompiles<DigestValidationModule>(
      '../../common/job-types/tickets-digest/digest-validation',
    );
    assert.equal(compiles(), 0);
    assert.equal(module.validateTicketsDigest({}).ok, false);
    assert.equal(compiles(), 1);
  });
});
