import strict, { AssertionError } from 'node:assert/strict';
import { expect } from '@jest/globals';

/**
 * node:assert/strict for tests run by Jest, with deep equality that works across realms.
 *
 * Jest runs each test file in its own vm context: an object literal in a test has that context's
 * Object.prototype, while what Node itself hands back (fs.readdir's array, fetch's response.json(), a child
 * process's parsed output) has the main realm's. node:assert's deepStrictEqual compares prototypes, so
 * `assert.deepEqual(await response.json(), { ok: true })` fails with "Values have same structure but are not
 * reference-equal". Jest's own toStrictEqual is the same check (undefined properties, class identity, sparse
 * arrays) except that a built-in type matches its twin from the other realm (jestjs/jest#2549, #14011).
 * Everything else is node:assert/strict unchanged. `instanceof` against a built-in error class has the same
 * realm problem and no fix here: match such errors by name or message.
 */
function deepStrictEqual(actual: unknown, expected: unknown, message?: string | Error): void {
  if (!equal(actual, expected)) fail(actual, expected, message, 'deepStrictEqual', deepStrictEqual);
}

function notDeepStrictEqual(actual: unknown, expected: unknown, message?: string | Error): void {
  if (equal(actual, expected)) fail(actual, expected, message, 'notDeepStrictEqual', notDeepStrictEqual);
}

function equal(actual: unknown, expected: unknown): boolean {
  try {
    expect(actual).toStrictEqual(expected);
    return true;
  } catch {
    return false;
  }
}

function fail(
  actual: unknown,
  expected: unknown,
  message: string | Error | undefined,
  operator: 'deepStrictEqual' | 'notDeepStrictEqual',
  caller: (...args: never[]) => unknown,
): never {
  if (message instanceof Error) throw message;
  // node's own message for the same operands, with its diff; the prototypes can differ only in realm here.
  let detail = message;
  if (detail === undefined) {
    try {
      strict[operator](actual, expected);
    } catch (error) {
      detail = (error as Error).message;
    }
  }
  throw new AssertionError({ message: detail, actual, expected, operator, stackStartFn: caller });
}

const realmAware = {
  deepEqual: deepStrictEqual,
  deepStrictEqual,
  notDeepEqual: notDeepStrictEqual,
  notDeepStrictEqual,
};
const assert: typeof strict = Object.assign(
  (value: unknown, message?: string | Error) => strict.ok(value, message),
  strict,
  realmAware,
);
Object.assign(assert, { strict: assert });
export default assert;
