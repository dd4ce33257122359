import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, test } from '@jest/globals';
import { ConfigError, loadCliConfig, loadConfig } from '../../lib/config';

const root = join(__dirname, '..', '..');

describe('loadConfig', () => {
  test('when nothing is set, then the local stack defaults of DESIGN.md §4 apply', () => {
    const config = loadConfig({});
    assert.equal(config.api.port, 3000);
    assert.equal(config.temporal.address, '127.0.0.1:7233');
    assert.equal(config.s3.endpoint, 'http://127.0.0.1:7070');
    assert.equal(config.anthropic.baseURL, 'http://127.0.0.1:8787');
    assert.equal(config.ledger.url, 'http://127.0.0.1:8789');
    assert.equal(config.jobs.reviewTimeoutMs, 48 * 3_600_000);
    assert.equal(config.tenants[0]?.id, 'demo');
    assert.equal(config.tenants[0]?.apiKey.reveal(), 'demo-key');
  });

  test('when a real Anthropic key is set without a base URL, then the real service is used', () => {
    const config = loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-test' });
    assert.equal(config.anthropic.baseURL, undefined);
  });

  test('when several values are bad, then one error names every one of them', () => {
    assert.throws(
      () => loadConfig({ API_PORT: 'eighty', REVIEW_TIMEOUT: 'soon', CONFIDENCE_THRESHOLD: '2', TEMPORAL_TLS: 'maybe' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['API_PORT', 'REVIEW_TIMEOUT', 'CONFIDENCE_THRESHOLD', 'TEMPORAL_TLS'].every((name) => error.message.includes(name)),
    );
  });

  test('when deployed to production without tenants or a model key, then it refuses to start', () => {
    assert.throws(() => loadConfig({ SLOWLANE_ENV: 'production', ANTHROPIC_API_KEY: 'k' }), /SLOWLANE_TENANTS/);
    assert.throws(() => loadConfig({ SLOWLANE_ENV: 'production', SLOWLANE_TENANTS: '[]' }), /ANTHROPIC_API_KEY/);
  });

  test('when the config is logged or serialised, then no secret appears', () => {
    const config = loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-very-secret', TEMPORAL_API_KEY: 'temporal-secret' });
    const printed = JSON.stringify(config) + inspect(config, { depth: 10 }) + `${config.anthropic.apiKey}`;
    for (const secret of ['sk-ant-very-secret', 'temporal-secret', 'demo-key', 'demo-reviewer-token', 'slowlane-local-secret']) {
      assert.ok(!printed.includes(secret), `${secret} leaked`);
    }
  });

  test('when a tenant entry is incomplete, then the error says which field of which entry', () => {
    assert.throws(() => loadConfig({ SLOWLANE_TENANTS: '[{"id":"acme","apiKey":"k"}]' }), /SLOWLANE_TENANTS\[0\]\.reviewerToken/);
  });

  test('when the CLI runs on a machine set up for production, then it needs only its API and key, not the servers\' settings', () => {
    assert.throws(() => loadConfig({ SLOWLANE_ENV: 'production' }), ConfigError);
    const cli = loadCliConfig({ SLOWLANE_ENV: 'production', SLOWLANE_API_URL: 'https://slowlane.example.com/', SLOWLANE_API_KEY: 'acme-key' });
    assert.equal(cli.apiUrl, 'https://slowlane.example.com');
    assert.equal(cli.apiKey?.reveal(), 'acme-key');
    assert.equal(loadCliConfig({ SLOWLANE_ENV: 'production' }).apiKey, undefined, 'no demo key outside the local stack');
  });

  test('when the CLI runs locally with nothing set, then it talks to this API with the first tenant\'s key', () => {
    const local = loadCliConfig({});
    assert.equal(local.apiUrl, 'http://127.0.0.1:3000');
    assert.equal(local.apiKey?.reveal(), 'demo-key');
    assert.equal(loadCliConfig({ API_PUBLIC_URL: 'http://127.0.0.1:4000/' }).apiUrl, 'http://127.0.0.1:4000');
  });

  test('when the README is read, then every environment variable the config reads is documented', () => {
    const source = readFileSync(join(root, 'lib', 'config.ts'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const names = [...source.matchAll(/read\.\w+(?:<.*?>)?\('([A-Z0-9_]+)'/g)].map((match) => match[1] as string);
    assert.ok(names.length > 20, 'the pattern should find the settings');
    const missing = [...new Set(names)].filter((name) => !readme.includes(`\`${name}\``));
    assert.deepEqual(missing, [], 'add these to the README configuration table');
  });
});
