import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, test } from '@jest/globals';
import { ConfigError, loadCliConfig, loadConfig } from '../../lib/config';
import { localTestConfig, localTestEnv, testTenant } from '../support/test-credentials';

const root = join(__dirname, '..', '..');

describe('loadConfig', () => {
  test('when local mode and its credentials are set, then the local stack’s defaults apply', () => {
    const config = localTestConfig();
    assert.equal(config.deployment, 'local');
    assert.equal(config.api.port, 3000);
    assert.equal(config.temporal.address, '127.0.0.1:7233');
    assert.equal(config.s3.endpoint, 'http://127.0.0.1:7070');
    assert.equal(config.anthropic.baseURL, 'http://127.0.0.1:8787');
    assert.equal(config.ledger.url, 'http://127.0.0.1:8789');
    assert.equal(config.jobs.reviewTimeoutMs, 48 * 3_600_000);
    assert.equal(config.tenants[0]?.id, 'demo');
    assert.equal(config.tenants[0]?.apiKey.reveal(), testTenant('demo').apiKey);
  });

  test('when a real Anthropic key is set without a base URL, then the real service is used', () => {
    const config = localTestConfig({ ANTHROPIC_API_KEY: 'sk-ant-test' });
    assert.equal(config.anthropic.baseURL, undefined);
  });

  test('when several values are bad, then one error names every one of them', () => {
    assert.throws(
      () =>
        localTestConfig({ API_PORT: 'eighty', REVIEW_TIMEOUT: 'soon', CONFIDENCE_THRESHOLD: '2', TEMPORAL_TLS: 'maybe' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['API_PORT', 'REVIEW_TIMEOUT', 'CONFIDENCE_THRESHOLD', 'TEMPORAL_TLS'].every((name) =>
          error.message.includes(name),
        ),
    );
  });

  test('when CALL_REVIEW_CONFIDENCE is not a number from 0 to 1, then it refuses to start; within, the call settings carry it', () => {
    for (const bad of ['1.5', '-0.1', 'low']) {
      assert.throws(
        () => localTestConfig({ CALL_REVIEW_CONFIDENCE: bad }),
        (error: unknown) => error instanceof ConfigError && error.message.includes('CALL_REVIEW_CONFIDENCE'),
        `CALL_REVIEW_CONFIDENCE=${bad}`,
      );
    }
    assert.equal(localTestConfig({ CALL_REVIEW_CONFIDENCE: '0.4' }).call.reviewConfidence, 0.4);
    assert.equal(localTestConfig().call.reviewConfidence, 0.6);
  });

  test('when deployed to production without a model key, then it refuses to start', () => {
    assert.throws(() => loadConfig(localTestEnv({ SLOWLANE_ENV: 'production' })), /ANTHROPIC_API_KEY is required in production/);
  });

  test('when deployed to production without a speech-to-text key, then it refuses to start rather than send audio to the simulator', () => {
    assert.throws(
      () => loadConfig(localTestEnv({ SLOWLANE_ENV: 'production', ANTHROPIC_API_KEY: 'k' })),
      /SPEECH_API_KEY is required in production/,
    );
  });

  test('when only a speech-to-text key is set, then the real provider is called; with neither key nor URL, the simulator', () => {
    assert.equal(localTestConfig({ SPEECH_API_KEY: 'sk-speech' }).speech.baseURL, 'https://api.openai.com');
    assert.equal(localTestConfig({ SPEECH_API_KEY: 'sk-speech' }).speech.apiKey.reveal(), 'sk-speech');
    assert.equal(localTestConfig().speech.baseURL, 'http://127.0.0.1:8787');
    assert.equal(localTestConfig({ SPEECH_BASE_URL: 'https://stt.example' }).speech.baseURL, 'https://stt.example');
  });

  test('when the AssemblyAI shape is chosen, then a key alone means its service and its model', () => {
    const config = localTestConfig({ SPEECH_PROVIDER: 'assemblyai', SPEECH_API_KEY: 'aai-key' });
    assert.equal(config.speech.baseURL, 'https://api.assemblyai.com');
    assert.equal(config.speech.model, 'universal-2');
    assert.equal(localTestConfig().speech.model, 'whisper-1');
    assert.throws(() => localTestConfig({ SPEECH_PROVIDER: 'deepgram' }), /SPEECH_PROVIDER/);
  });

  test('when production uses the AssemblyAI shape without SPEECH_CALLBACK_SECRET, then it refuses to start; locally one is derived', () => {
    const production = { SLOWLANE_ENV: 'production', ANTHROPIC_API_KEY: 'k', SPEECH_API_KEY: 'k', WEBHOOK_ALLOW_PRIVATE_URLS: undefined, SLOWLANE_OPERATORS: undefined };
    assert.throws(
      () => loadConfig(localTestEnv({ ...production, SPEECH_PROVIDER: 'assemblyai' })),
      /SPEECH_PROVIDER=assemblyai needs SPEECH_CALLBACK_SECRET in production/,
    );
    const secret = 'q7Vx2LmN9pR4sT8wZ1bC6dF3gH5jK0yA';
    assert.equal(loadConfig(localTestEnv({ ...production, SPEECH_PROVIDER: 'assemblyai', SPEECH_CALLBACK_SECRET: secret })).speech.callbackSecret.reveal(), secret);
    const local = localTestConfig({ SPEECH_PROVIDER: 'assemblyai' });
    assert.ok(local.speech.callbackSecret.reveal().length >= 32);
    assert.notEqual(local.speech.callbackSecret.reveal(), local.api.pageTokenSecret.reveal());
  });

  test('when the config is logged or serialised, then no secret appears', () => {
    const config = localTestConfig({ ANTHROPIC_API_KEY: 'sk-ant-very-secret', TEMPORAL_API_KEY: 'temporal-secret' });
    const printed = JSON.stringify(config) + inspect(config, { depth: 10 }) + `${config.anthropic.apiKey}`;
    const demo = testTenant('demo');
    for (const secret of ['sk-ant-very-secret', 'temporal-secret', demo.apiKey, demo.reviewerToken, demo.webhookSecret, 'slowlane-local-secret']) {
      assert.ok(!printed.includes(secret), `${secret.slice(0, 6)}… leaked`);
    }
  });

  test('when a tenant entry is incomplete, then the error says which field of which entry', () => {
    assert.throws(() => localTestConfig({ SLOWLANE_TENANTS: '[{"id":"acme","apiKey":"k"}]' }), /SLOWLANE_TENANTS\[0\]\.webhookSecret is missing/);
  });

  test("when the CLI runs anywhere, then it needs only its API and key: no SLOWLANE_ENV, no servers' settings, no demo key", () => {
    const cli = loadCliConfig({ SLOWLANE_API_URL: 'https://slowlane.example.com/', SLOWLANE_API_KEY: 'acme-key' });
    assert.equal(cli.apiUrl, 'https://slowlane.example.com');
    assert.equal(cli.apiKey?.reveal(), 'acme-key');
    const bare = loadCliConfig({});
    assert.equal(bare.apiUrl, 'http://127.0.0.1:3000');
    assert.equal(bare.apiKey, undefined, 'no key unless one is given');
    assert.equal(loadCliConfig({ API_PUBLIC_URL: 'http://127.0.0.1:4000/' }).apiUrl, 'http://127.0.0.1:4000');
  });

  test('when a JSON setting breaks its schema, then the error says where inside the JSON', () => {
    assert.throws(
      () =>
        localTestConfig({
          MODEL_PRICES: '{"claude-x": {"inputPerMTok": -1, "outputPerMTok": 2}}',
          GATEWAY_MODEL_LIMITS:
            '{"claude-x": {"inputTokensPerMinute": 1, "outputTokensPerMinute": 0, "requestsPerMinute": 1}}',
          SLOWLANE_TENANTS:
            '[{"id":"acme","apiKey":"k","webhookSecret":"whsec_w","defaultCallbackURL":"x"}]',
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
    const config = localTestConfig({
      MODEL_PRICES: '{"claude-haiku-4-5": {"inputPerMTok": 0.5, "outputPerMTok": 2}}',
      GATEWAY_MODEL_LIMITS:
        '{"claude-opus-4-6": {"inputTokensPerMinute": 10, "outputTokensPerMinute": 20, "requestsPerMinute": 30}}',
      GATEWAY_RPM: '50',
    });
    assert.deepEqual(config.anthropic.prices['claude-haiku-4-5'], { inputPerMTok: 0.5, outputPerMTok: 2 });
    assert.deepEqual(config.anthropic.prices['claude-sonnet-4-6'], {
      inputPerMTok: 3,
      outputPerMTok: 15,
      cacheWritePerMTok: 3.75,
      cacheReadPerMTok: 0.3,
    });
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
        localTestConfig({
          SLOWLANE_TENANTS: '[{"id":"Acme Corp","apiKey":"sk-live-123","webhookSecret":"whsec_w"}]',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /SLOWLANE_TENANTS\[0\]\.id must match pattern/);
        assert.ok(!error.message.includes('sk-live-123'), error.message);
        return true;
      },
    );
  });

  test('when deployed to production with its required settings, then no local default applies', () => {
    const config = loadConfig(
      localTestEnv({ SLOWLANE_ENV: 'production', ANTHROPIC_API_KEY: 'k', SPEECH_API_KEY: 'k', WEBHOOK_ALLOW_PRIVATE_URLS: undefined, SLOWLANE_OPERATORS: undefined }),
    );
    assert.deepEqual(
      config.tenants.map((tenant) => tenant.id),
      ['demo', 'acme'],
    );
    assert.deepEqual(config.people.operators, [], 'no operator unless configured');
    assert.equal(config.s3.endpoint, undefined);
    assert.equal(config.s3.accessKeyId, undefined);
    assert.equal(config.s3.secretAccessKey, undefined);
    assert.equal(config.s3.forcePathStyle, false);
    assert.equal(config.clients.allowPrivateCallbackUrls, false);
    assert.equal(config.anthropic.baseURL, undefined);
  });

  test('when a kill-test hook is set, then the local stack takes it and production refuses to start', () => {
    assert.equal(loadConfig(localTestEnv({ BATCH_TEST_KILL_AT: 'during-answers' })).batchLane.killAt, 'during-answers');
    assert.equal(loadConfig(localTestEnv()).batchLane.killAt, undefined);
    const production = { SLOWLANE_ENV: 'production', ANTHROPIC_API_KEY: 'k', SPEECH_API_KEY: 'k', WEBHOOK_ALLOW_PRIVATE_URLS: undefined, SLOWLANE_OPERATORS: undefined };
    assert.throws(
      () => loadConfig(localTestEnv({ ...production, BATCH_TEST_KILL_AT: 'before-create' })),
      /BATCH_TEST_KILL_AT is a test hook: production refuses to start with it set/,
    );
  });

  test('when Temporal endpoints are set or not, then the config says which came from the environment', () => {
    assert.deepEqual(localTestConfig().temporal.fromEnvironment, { address: false, webUiUrl: false });
    const set = localTestConfig({ TEMPORAL_ADDRESS: '10.0.0.1:7233', TEMPORAL_WEB_UI_URL: 'http://ui.internal/' });
    assert.deepEqual(set.temporal.fromEnvironment, { address: true, webUiUrl: true });
    assert.equal(set.temporal.webUiUrl, 'http://ui.internal');
  });

  test('when a process or the CLI loads its config, then every variable it reads is in docs/configuration.md', () => {
    const doc = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    const read = new Set<string>();
    // Answers with a loadable local config (a bare one is refused), and notes every name asked for.
    const recording = new Proxy<Record<string, string | undefined>>(localTestEnv(), {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return typeof name === 'string' ? target[name] : undefined;
      },
    });
    loadConfig(recording);
    loadCliConfig(recording);
    assert.ok(read.size > 40, `the recording should see the settings, saw ${read.size}`);
    const missing = [...read].filter((name) => !doc.includes(`| \`${name}\` |`));
    assert.deepEqual(missing, [], 'define these in a setting table, then run npm run docs:config');
  });
});
