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
      () =>
        loadConfig({ API_PORT: 'eighty', REVIEW_TIMEOUT: 'soon', CONFIDENCE_THRESHOLD: '2', TEMPORAL_TLS: 'maybe' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['API_PORT', 'REVIEW_TIMEOUT', 'CONFIDENCE_THRESHOLD', 'TEMPORAL_TLS'].every((name) =>
          error.message.includes(name),
        ),
    );
  });

  test('when deployed to production without tenants or a model key, then it refuses to start', () => {
    assert.throws(() => loadConfig({ SLOWLANE_ENV: 'production', ANTHROPIC_API_KEY: 'k' }), /SLOWLANE_TENANTS/);
    assert.throws(() => loadConfig({ SLOWLANE_ENV: 'production', SLOWLANE_TENANTS: '[]' }), /ANTHROPIC_API_KEY/);
  });

  test('when the config is logged or serialised, then no secret appears', () => {
    const config = loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-very-secret', TEMPORAL_API_KEY: 'temporal-secret' });
    const printed = JSON.stringify(config) + inspect(config, { depth: 10 }) + `${config.anthropic.apiKey}`;
    for (const secret of [
      'sk-ant-very-secret',
      'temporal-secret',
      'demo-key',
      'demo-reviewer-token',
      'slowlane-local-secret',
    ]) {
      assert.ok(!printed.includes(secret), `${secret} leaked`);
    }
  });

  test('when a tenant entry is incomplete, then the error says which field of which entry', () => {
    assert.throws(
      () => loadConfig({ SLOWLANE_TENANTS: '[{"id":"acme","apiKey":"k"}]' }),
      /SLOWLANE_TENANTS\[0\]\.reviewerToken/,
    );
  });

  test("when the CLI runs on a machine set up for production, then it needs only its API and key, not the servers' settings", () => {
    assert.throws(() => loadConfig({ SLOWLANE_ENV: 'production' }), ConfigError);
    const cli = loadCliConfig({
      SLOWLANE_ENV: 'production',
      SLOWLANE_API_URL: 'https://slowlane.example.com/',
      SLOWLANE_API_KEY: 'acme-key',
    });
    assert.equal(cli.apiUrl, 'https://slowlane.example.com');
    assert.equal(cli.apiKey?.reveal(), 'acme-key');
    assert.equal(
      loadCliConfig({ SLOWLANE_ENV: 'production' }).apiKey,
      undefined,
      'no demo key outside the local stack',
    );
  });

  test("when the CLI runs locally with nothing set, then it talks to this API with the first tenant's key", () => {
    const local = loadCliConfig({});
    assert.equal(local.apiUrl, 'http://127.0.0.1:3000');
    assert.equal(local.apiKey?.reveal(), 'demo-key');
    assert.equal(loadCliConfig({ API_PUBLIC_URL: 'http://127.0.0.1:4000/' }).apiUrl, 'http://127.0.0.1:4000');
  });

  test('when a JSON setting breaks its schema, then the error says where inside the JSON', () => {
    assert.throws(
      () =>
        loadConfig({
          MODEL_PRICES: '{"claude-x": {"inputPerMTok": -1, "outputPerMTok": 2}}',
          GATEWAY_MODEL_LIMITS:
            '{"claude-x": {"inputTokensPerMinute": 1, "outputTokensPerMinute": 0, "requestsPerMinute": 1}}',
          SLOWLANE_TENANTS:
            '[{"id":"acme","apiKey":"k","reviewerToken":"r","webhookSecret":"w","defaultCallbackURL":"x"}]',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /MODEL_PRICES\["claude-x"\]\.inputPerMTok must be >= 0/);
        assert.match(error.message, /GATEWAY_MODEL_LIMITS\["claude-x"\]\.outputTokensPerMinute must be > 0/);
        assert.match(error.message, /SLOWLANE_TENANTS\[0\]\.defaultCallbackURL is not a known property/);
        return true;
      },
    );
  });

  test('when JSON settings are valid, then prices merge over the list prices and model pools sit beside "*"', () => {
    const config = loadConfig({
      MODEL_PRICES: '{"claude-haiku-4-5": {"inputPerMTok": 0.5, "outputPerMTok": 2}}',
      GATEWAY_MODEL_LIMITS:
        '{"claude-opus-4-6": {"inputTokensPerMinute": 10, "outputTokensPerMinute": 20, "requestsPerMinute": 30}}',
      GATEWAY_RPM: '50',
    });
    assert.deepEqual(config.anthropic.prices['claude-haiku-4-5'], { inputPerMTok: 0.5, outputPerMTok: 2 });
    assert.deepEqual(config.anthropic.prices['claude-sonnet-4-6'], { inputPerMTok: 3, outputPerMTok: 15 });
    assert.deepEqual(config.gateway.pools['claude-opus-4-6'], {
      inputTokensPerMinute: 10,
      outputTokensPerMinute: 20,
      requestsPerMinute: 30,
    });
    assert.equal(config.gateway.pools['*']?.requestsPerMinute, 50);
  });

  test('when a secret-bearing setting is malformed, then the error names it without repeating its value', () => {
    assert.throws(
      () =>
        loadConfig({
          SLOWLANE_TENANTS: '[{"id":"Acme Corp","apiKey":"sk-live-123","reviewerToken":"r","webhookSecret":"w"}]',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /SLOWLANE_TENANTS\[0\]\.id must match pattern/);
        assert.ok(!error.message.includes('sk-live-123'), error.message);
        return true;
      },
    );
  });

  test('when deployed to production with its required settings, then no local demo default applies', () => {
    const config = loadConfig({
      SLOWLANE_ENV: 'production',
      ANTHROPIC_API_KEY: 'k',
      API_PAGE_TOKEN_SECRET: 'p',
      PAYLOAD_CODEC_KEYS: JSON.stringify({ k1: Buffer.alloc(32, 1).toString('base64') }),
      SLOWLANE_TENANTS: '[{"id":"acme","apiKey":"a","reviewerToken":"r","webhookSecret":"w"}]',
    });
    assert.deepEqual(
      config.tenants.map((tenant) => tenant.id),
      ['acme'],
    );
    assert.equal(config.api.adminKey, undefined);
    assert.equal(config.s3.endpoint, undefined);
    assert.equal(config.s3.accessKeyId, undefined);
    assert.equal(config.s3.secretAccessKey, undefined);
    assert.equal(config.s3.forcePathStyle, false);
    assert.equal(config.clients.allowPrivateCallbackUrls, false);
    assert.equal(config.anthropic.baseURL, undefined);
    assert.equal(loadConfig({}).api.adminKey?.reveal(), 'admin-key', 'the local stack keeps its admin key');
  });

  test('when Temporal endpoints are set or not, then the config says which came from the environment', () => {
    assert.deepEqual(loadConfig({}).temporal.fromEnvironment, { address: false, webUiUrl: false });
    const set = loadConfig({ TEMPORAL_ADDRESS: '10.0.0.1:7233', TEMPORAL_WEB_UI_URL: 'http://ui.internal/' });
    assert.deepEqual(set.temporal.fromEnvironment, { address: true, webUiUrl: true });
    assert.equal(set.temporal.webUiUrl, 'http://ui.internal');
  });

  test('when a process or the CLI loads its config, then every variable it reads is in docs/configuration.md', () => {
    const doc = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    const read = new Set<string>();
    const recording = new Proxy<Record<string, string | undefined>>(
      {},
      {
        get: (_target, name) => {
          if (typeof name === 'string') read.add(name);
          return undefined;
        },
      },
    );
    loadConfig(recording);
    loadCliConfig(recording);
    assert.ok(read.size > 40, `the recording should see the settings, saw ${read.size}`);
    const missing = [...read].filter((name) => !doc.includes(`| \`${name}\` |`));
    assert.deepEqual(missing, [], 'define these in a setting table, then run npm run docs:config');
  });
});
