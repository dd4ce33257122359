import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ConfigError } from '../../lib/settings/config-error';
import { DEFAULT_OPTIONS, loadOptions, parseSettingsPatch } from '../../local/simulator/options';

describe('loadOptions', () => {
  test('when nothing is set, then the documented defaults apply (loopback, port 8787)', () => {
    const options = loadOptions({}, []);
    assert.deepEqual(options, DEFAULT_OPTIONS);
    assert.equal(options.host, '127.0.0.1');
    assert.equal(options.port, 8787);
    assert.equal(options.requestsPerMinute, 4000);
    assert.equal(options.inputTokensPerMinute, 2_000_000);
    assert.equal(options.outputTokensPerMinute, 400_000);
  });

  test('when env and flags both set a value, then the flag wins', () => {
    const options = loadOptions({ SIM_PORT: '9000', SIM_RPM: '50', SIM_RATE_529: '0.25', SIM_SEED: '7' }, [
      '--port=9100',
      '--latency-base-ms=5',
    ]);
    assert.equal(options.port, 9100);
    assert.equal(options.requestsPerMinute, 50);
    assert.equal(options.rate529, 0.25);
    assert.equal(options.seed, 7);
    assert.equal(options.latencyBaseMs, 5);
  });

  test('when a value is malformed, then the error names the variable and the value', () => {
    assert.throws(() => loadOptions({ SIM_RATE_429: 'lots' }, []), {
      name: 'ConfigError',
      message: 'Invalid configuration:\n  - SIM_RATE_429=lots must be a number from 0 to 1',
    });
    assert.throws(() => loadOptions({ SIM_RPM: '0' }, []), /SIM_RPM=0 must be a whole number ≥ 1/);
    assert.throws(() => loadOptions({}, ['--port=70000']), /--port=70000 must be a whole number from 0 to 65535/);
  });

  test('when several values are bad, then one error names every one of them', () => {
    assert.throws(() => loadOptions({ SIM_RPM: 'many', SIM_SEED: '1.5' }, ['--rate-500=2']), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      for (const name of ['SIM_RPM=many', 'SIM_SEED=1.5', '--rate-500=2']) assert.ok(error.message.includes(name), name);
      return true;
    });
  });

  test('when the host is not a loopback address, then start-up fails: the simulator must not be reachable from outside', () => {
    assert.throws(() => loadOptions({ SIM_HOST: '0.0.0.0' }, []), /SIM_HOST=0\.0\.0\.0 must be a loopback address/);
    assert.throws(() => loadOptions({}, ['--host=10.0.0.5']), /--host=10\.0\.0\.5 must be a loopback address/);
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) assert.equal(loadOptions({ SIM_HOST: host }, []).host, host);
  });

  test('when a flag is unknown or not --key=value, then it is refused with the list of known flags', () => {
    assert.throws(() => loadOptions({}, ['--prot=1']), /unknown argument "--prot=1".*--port/);
    assert.throws(() => loadOptions({}, ['8787']), ConfigError);
  });

  test('when the fault rates add up to more than 1, then start-up fails', () => {
    assert.throws(() => loadOptions({ SIM_RATE_429: '0.6', SIM_RATE_500: '0.5' }, []), /add up to 1\.1/);
  });
});

describe('parseSettingsPatch', () => {
  test('when given runtime keys with valid values, then it returns them', () => {
    assert.deepEqual(parseSettingsPatch({ requestsPerMinute: 10, rate429: 0.5, seed: null }), {
      requestsPerMinute: 10,
      rate429: 0.5,
      seed: null,
    });
  });

  test('when given the address or an unknown key, then it refuses', () => {
    assert.throws(() => parseSettingsPatch({ port: 1 }), /"port" cannot be changed at runtime/);
    assert.throws(() => parseSettingsPatch({ rpm: 1 }), /"rpm" cannot be changed/);
  });

  test('when a value has the wrong type or range, then it refuses', () => {
    assert.throws(() => parseSettingsPatch({ rate529: '0.1' }), /rate529 must be a number/);
    assert.throws(() => parseSettingsPatch({ rate529: 2 }), /rate529=2 must be a number from 0 to 1/);
    assert.throws(() => parseSettingsPatch([]), /JSON object/);
  });
});
