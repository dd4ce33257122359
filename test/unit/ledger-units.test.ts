import assert from '../support/assert';
import path from 'node:path';
import { describe, test } from '@jest/globals';
import { canonicalJson } from '../../common/canonical-json';
import { KeyedMutex } from '../../local/ledger/keyed-mutex';
import { ConfigError } from '../../lib/settings/config-error';
import { resolveLedgerOptions } from '../../local/ledger/options';

describe('ledger: canonical JSON', () => {
  test('when only key order differs, at any depth, then the canonical text is the same', () => {
    const a = { b: 1, a: { y: [1, { q: null, p: 'x' }], x: true } };
    const b = { a: { x: true, y: [1, { p: 'x', q: null }] }, b: 1 };
    assert.equal(canonicalJson(a), canonicalJson(b));
  });

  test('when array order or a value differs, then the canonical text differs', () => {
    assert.notEqual(canonicalJson({ items: [1, 2] }), canonicalJson({ items: [2, 1] }));
    assert.notEqual(canonicalJson({ total: 119 }), canonicalJson({ total: 119.01 }));
  });

  test('when a key is "__proto__", then it stays part of the data', () => {
    const parsed: unknown = JSON.parse('{"__proto__": {"x": 1}, "a": 2}');
    assert.equal(canonicalJson(parsed), '{"__proto__":{"x":1},"a":2}');
  });
});

describe('ledger: keyed mutex', () => {
  test('when tasks share a key, then they run one at a time in arrival order', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name}:start`);
      await new Promise((resolve) => setImmediate(resolve));
      events.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([
      mutex.runExclusive('k', task('a')),
      mutex.runExclusive('k', task('b')),
      mutex.runExclusive('k', task('c')),
    ]);
    assert.deepEqual(results, ['a', 'b', 'c']);
    assert.deepEqual(events, ['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });

  test('when a task fails, then the next task for the key still runs', async () => {
    const mutex = new KeyedMutex();
    const failing = mutex.runExclusive('k', () => Promise.reject(new Error('boom')));
    const next = mutex.runExclusive('k', () => Promise.resolve('ran'));
    await assert.rejects(failing, /boom/);
    assert.equal(await next, 'ran');
  });

  test('when tasks have different keys, then they overlap', async () => {
    const mutex = new KeyedMutex();
    let releaseFirst: () => void = () => undefined;
    const first = mutex.runExclusive('a', () => new Promise<void>((resolve) => (releaseFirst = resolve)));
    // Would never settle if key "b" waited behind key "a".
    await mutex.runExclusive('b', () => Promise.resolve());
    releaseFirst();
    await first;
  });
});

describe('ledger: options', () => {
  test('when nothing is set, then loopback, port 8789 and .data/ledger under the current directory', () => {
    assert.deepEqual(resolveLedgerOptions({}, {}), {
      host: '127.0.0.1',
      port: 8789,
      dataDir: path.resolve('.data/ledger'),
    });
  });

  test('when the environment sets values, then they are used, and explicit options win over them', () => {
    const env = { LEDGER_HOST: '::1', LEDGER_PORT: '9000', LEDGER_DATA_DIR: '/tmp/ledger-env' };
    assert.deepEqual(resolveLedgerOptions({}, env), { host: '::1', port: 9000, dataDir: '/tmp/ledger-env' });
    assert.equal(resolveLedgerOptions({ port: 0 }, env).port, 0);
  });

  test('when a value is invalid, then a ConfigError names the variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ LEDGER_PORT: 'http' }, /LEDGER_PORT/],
      [{ LEDGER_PORT: '70000' }, /LEDGER_PORT/],
      [{ LEDGER_PORT: '-1' }, /LEDGER_PORT/],
      [{ LEDGER_HOST: '0.0.0.0' }, /LEDGER_HOST=0\.0\.0\.0 must be a loopback address/],
      [{ LEDGER_HOST: '10.0.0.5' }, /LEDGER_HOST/],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => resolveLedgerOptions({}, env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, message);
          return true;
        },
      );
    }
    assert.throws(() => resolveLedgerOptions({ port: 1.5 }, {}), /options\.port=1\.5 must be a whole number/);
  });
});
