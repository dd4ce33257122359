import assert from '../support/assert';
import { inspect } from 'node:util';
import { describe, test } from '@jest/globals';
import { ConfigError } from '../../lib/settings/config-error';
import { readSettings, SettingsReader } from '../../lib/settings/read-settings';
import { setting } from '../../lib/settings/setting';
import { fromEnv, fromFlags, fromOptions } from '../../lib/settings/setting-sources';
import { duration, int, listOf, secret, text, url } from '../../lib/settings/setting-types';

const table = {
  port: setting({ env: 'T_PORT', type: int({ min: 0, max: 65535 }), default: '80', doc: 'a port' }),
  endpoint: setting({ env: 'T_ENDPOINT', type: url(), localDefault: 'http://127.0.0.1:1/', doc: 'an endpoint' }),
  key: setting({ env: 'T_KEY', type: secret(), required: 'production', doc: 'a key' }),
  wait: setting({ env: 'T_WAIT', type: duration(), default: '1m30s', doc: 'a wait' }),
};

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, 'a bad setting is a ConfigError');
    return error.message;
  }
  assert.fail('expected a ConfigError');
}

describe('SettingsReader', () => {
  test('when nothing is set, then defaults go through the same parser as set values', () => {
    const values = readSettings(table, []);
    assert.equal(values.port, 80);
    assert.equal(values.wait, 90_000);
    assert.equal(values.endpoint, 'http://127.0.0.1:1', 'the local default, trailing slash dropped');
    assert.equal(values.key, undefined);
  });

  test('when in production, then local defaults do not apply and a required setting is reported by name', () => {
    const message = messageOf(() => readSettings(table, [], 'production'));
    assert.match(message, /T_KEY is required in production/);
    const values = readSettings(table, [fromEnv({ T_KEY: 'k' })], 'production');
    assert.equal(values.endpoint, undefined);
    assert.equal(values.key?.reveal(), 'k');
  });

  test('when several sources set a value, then the later one wins and errors name where the value came from', () => {
    const sources = [fromEnv({ T_PORT: '81' }), fromFlags(['--port=82'], table, 'T_'), fromOptions({ wait: '2s' })];
    const values = readSettings(table, sources);
    assert.equal(values.port, 82);
    assert.equal(values.wait, 2_000);
    const message = messageOf(() =>
      readSettings(table, [
        fromEnv({ T_PORT: 'x' }),
        fromFlags(['--wait=soon'], table, 'T_'),
        fromOptions({ endpoint: 'nowhere' }),
      ]),
    );
    assert.match(message, /T_PORT=x must be a whole number from 0 to 65535/);
    assert.match(message, /--wait=soon must be a duration/);
    assert.match(message, /options\.endpoint=nowhere must be an absolute URL/);
  });

  test('when a flag is unknown or malformed, then it is refused with the known flags', () => {
    assert.match(
      messageOf(() => fromFlags(['--prot=1'], table, 'T_')),
      /unknown argument "--prot=1".*--port, --endpoint, --key, --wait/,
    );
    assert.match(
      messageOf(() => fromFlags(['8080'], table, 'T_')),
      /unknown argument "8080"/,
    );
  });

  test('when a variable is blank, then it counts as unset', () => {
    assert.equal(readSettings(table, [fromEnv({ T_PORT: '  ' })]).port, 80);
  });

  test('when read secrets are printed, then their values never appear', () => {
    const values = readSettings(table, [fromEnv({ T_KEY: 'hunter2' })]);
    assert.ok(!`${JSON.stringify(values)} ${inspect(values)}`.includes('hunter2'));
  });

  test('when asked whether a setting was set, then a default does not count', () => {
    const reader = new SettingsReader([fromEnv({ T_WAIT: '5s' })]);
    assert.equal(reader.isSet(table.wait), true);
    assert.equal(reader.isSet(table.port), false);
  });
});

describe('setting types', () => {
  test('when values are at or beyond their bounds, then only those inside are accepted', () => {
    const port = int({ min: 0, max: 65535 });
    assert.deepEqual(port.parse('65535'), { ok: true, value: 65535 });
    assert.equal(port.parse('65536').ok, false);
    assert.equal(port.parse('1.5').ok, false);
    assert.equal(port.parse('0x10').ok, false);
  });

  test('when a list has an unknown item, then it is refused; known items are kept in order', () => {
    const priorities = listOf(['interactive', 'bulk']);
    assert.deepEqual(priorities.parse('bulk, interactive'), { ok: true, value: ['bulk', 'interactive'] });
    assert.equal(priorities.parse('bulk,fast').ok, false);
  });

  test('when text is read, then it is kept as written', () => {
    assert.deepEqual(text().parse('slowlane:budget'), { ok: true, value: 'slowlane:budget' });
  });
});
