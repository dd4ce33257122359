import assert from '../support/assert';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { loadConfig } from '../../lib/config';
import { configRefusal } from '../support/config-refusal';
import { callbackUrlPolicy, checkCallbackUrl } from '../../lib/callback-url';
import { MIN_SECRET_LENGTH, weakSecretReason } from '../../lib/settings/secret-strength';
import { generateLocalSecrets, LOCAL_MODE_ENV, localSecretsEnv } from '../../local/stack/local-secrets';
import { localTestEnv, testTenant } from '../support/test-credentials';

const root = join(__dirname, '..', '..');
const demo = testTenant('demo');
const acme = testTenant('acme');

const tenantsWith = (change: (tenants: Array<Record<string, unknown>>) => void): string => {
  const tenants = JSON.parse(localTestEnv().SLOWLANE_TENANTS as string) as Array<Record<string, unknown>>;
  change(tenants);
  return JSON.stringify(tenants);
};

describe('fail-closed configuration: what makes a process refuse to start', () => {
  test('when SLOWLANE_ENV is not set, then nothing starts, even with every credential given', () => {
    const message = configRefusal(localTestEnv({ SLOWLANE_ENV: undefined }));
    assert.match(message, /SLOWLANE_ENV is required/);
  });

  test('when nothing at all is set, then one error names every missing setting, read as production would be', () => {
    const message = configRefusal({});
    for (const name of ['SLOWLANE_ENV', 'SLOWLANE_TENANTS', 'API_PAGE_TOKEN_SECRET', 'ANTHROPIC_API_KEY', 'SPEECH_API_KEY']) {
      assert.match(message, new RegExp(`${name} is required`), name);
    }
  });

  test('when local mode is set but its credentials are not, then the local stack is refused too: it has no demo secrets', () => {
    const message = configRefusal({ ...LOCAL_MODE_ENV });
    assert.match(message, /SLOWLANE_TENANTS is required/);
    assert.match(message, /API_PAGE_TOKEN_SECRET is required/);
    assert.doesNotMatch(message, /ANTHROPIC_API_KEY|SPEECH_API_KEY/, 'the local stack runs on the provider simulator');
  });

  test('when secrets are weak, then every weak one is named at once, by its place, and no value is repeated', () => {
    const weak = {
      published: 'demo-key',
      short: 'Zq7-x',
      samey: 'abababababababababababababababababab',
      webhook: 'whsec_ZGVtby13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
      reviewer: 'demo-reviewer-token',
      operator: 'admin-key',
      page: 'slowlane-local-page-token-secret',
    };
    const message = configRefusal(
      localTestEnv({
        SLOWLANE_TENANTS: tenantsWith((tenants) => {
          Object.assign(tenants[0] as object, { apiKey: weak.published, webhookSecret: weak.webhook });
          Object.assign(tenants[1] as object, { apiKey: weak.short, reviewers: [{ id: 'kim', token: weak.reviewer }, { id: 'lee', token: weak.samey }] });
        }),
        SLOWLANE_OPERATORS: JSON.stringify([{ id: 'ops', token: weak.operator }]),
        API_PAGE_TOKEN_SECRET: weak.page,
      }),
    );
    assert.match(message, /SLOWLANE_TENANTS\[0\]\.apiKey is a published demo value/);
    assert.match(message, /SLOWLANE_TENANTS\[0\]\.webhookSecret is a published demo value/);
    assert.match(message, new RegExp(`SLOWLANE_TENANTS\\[1\\]\\.apiKey is shorter than ${MIN_SECRET_LENGTH} characters`));
    assert.match(message, /SLOWLANE_TENANTS\[1\]\.reviewers\[0\]\.token is a published demo value/);
    assert.match(message, /SLOWLANE_TENANTS\[1\]\.reviewers\[1\]\.token has fewer than 10 different characters/);
    assert.match(message, /SLOWLANE_OPERATORS\[0\]\.token is a published demo value/);
    assert.match(message, /API_PAGE_TOKEN_SECRET is a published demo value/);
    for (const value of Object.values(weak)) assert.ok(!message.includes(value), `${value.slice(0, 6)}… was repeated`);
  });

  test('when two tenants share an API key, or a reviewer token is another tenant’s key, then both repeats are named', () => {
    const message = configRefusal(
      localTestEnv({
        SLOWLANE_TENANTS: tenantsWith((tenants) => {
          Object.assign(tenants[1] as object, { apiKey: demo.apiKey, reviewers: [{ id: 'kim', token: demo.reviewerToken }] });
        }),
      }),
    );
    assert.match(message, /SLOWLANE_TENANTS\[1\]\.apiKey is the same credential as SLOWLANE_TENANTS\[0\]\.apiKey/);
    assert.match(message, /SLOWLANE_TENANTS\[1\]\.reviewers\[0\] is the same credential as SLOWLANE_TENANTS\[0\]\.reviewers\[0\]/);
  });

  test('when an operator token is a tenant key, even given only as its SHA-256, then it is refused', () => {
    const sha256 = createHash('sha256').update(acme.apiKey).digest('hex');
    const message = configRefusal(localTestEnv({ SLOWLANE_OPERATORS: JSON.stringify([{ id: 'ops', tokenSha256: sha256 }]) }));
    assert.match(message, /SLOWLANE_OPERATORS\[0\] is the same credential as SLOWLANE_TENANTS\[1\]\.apiKey/);
  });

  test('when a tenant id or a person id repeats, or a person has no token or two, then each is named', () => {
    const message = configRefusal(
      localTestEnv({
        SLOWLANE_TENANTS: tenantsWith((tenants) => {
          (tenants[1] as { id: string }).id = 'demo';
          (tenants[0] as { reviewers: unknown[] }).reviewers = [
            { id: 'ada', token: generateLocalSecrets().pageTokenSecret },
            { id: 'ada', token: generateLocalSecrets().pageTokenSecret },
            { id: 'bob' },
            { id: 'eve', token: generateLocalSecrets().pageTokenSecret, tokenSha256: '0'.repeat(64) },
          ];
        }),
      }),
    );
    assert.match(message, /SLOWLANE_TENANTS\[1\]\.id repeats the tenant id "demo"/);
    assert.match(message, /SLOWLANE_TENANTS\[0\]\.reviewers\[1\]\.id repeats the id "ada"/);
    assert.match(message, /SLOWLANE_TENANTS\[0\]\.reviewers\[2\] must have exactly one of token and tokenSha256/);
    assert.match(message, /SLOWLANE_TENANTS\[0\]\.reviewers\[3\] must have exactly one of token and tokenSha256/);
  });

  test('when OIDC is configured only in part, then the missing settings are named', () => {
    const message = configRefusal(localTestEnv({ OIDC_ISSUER: 'https://id.example/' }));
    assert.match(message, /OIDC_AUDIENCE and OIDC_JWKS_URL must be set too/);
  });

  test('when private callback URLs are not explicitly allowed, then they are refused, in local mode too', () => {
    for (const deployment of ['local', 'production']) {
      const config = loadConfig(localTestEnv({ SLOWLANE_ENV: deployment, ANTHROPIC_API_KEY: 'k', SPEECH_API_KEY: 'k', WEBHOOK_ALLOW_PRIVATE_URLS: undefined }));
      assert.equal(config.clients.allowPrivateCallbackUrls, false, deployment);
      const policy = callbackUrlPolicy(config);
      assert.equal(checkCallbackUrl('http://127.0.0.1:9000/hook', policy).ok, false);
      assert.equal(checkCallbackUrl('http://10.1.2.3/hook', policy).ok, false);
    }
    const allowed = loadConfig(localTestEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }));
    assert.equal(checkCallbackUrl('http://127.0.0.1:9000/hook', callbackUrlPolicy(allowed)).ok, true);
  });

  test('when objects would rest unencrypted in production, then it is refused; the product encrypts them unless the store is declared to', () => {
    const production = { SLOWLANE_ENV: 'production', ANTHROPIC_API_KEY: 'k', SPEECH_API_KEY: 'k' };
    assert.match(configRefusal(localTestEnv({ ...production, OBJECT_STORE_ENCRYPTION: 'none' })), /OBJECT_STORE_ENCRYPTION=none is refused in production/);
    assert.equal(loadConfig(localTestEnv(production)).s3.encryption, 'product');
    assert.equal(loadConfig(localTestEnv({ ...production, OBJECT_STORE_ENCRYPTION: 'server-side' })).s3.encryption, 'server-side');
    assert.equal(loadConfig(localTestEnv()).s3.encryption, 'product', 'the local stack has codec keys, so it seals too');
    assert.equal(loadConfig(localTestEnv({ PAYLOAD_CODEC_KEYS: undefined })).s3.encryption, 'none');
    assert.match(configRefusal(localTestEnv({ PAYLOAD_CODEC_KEYS: undefined, OBJECT_STORE_ENCRYPTION: 'product' })), /OBJECT_STORE_ENCRYPTION=product needs PAYLOAD_CODEC_KEYS/);
  });

  test("when the local stack's generated credentials are loaded, then they pass every check, and a second set shares nothing", () => {
    const first = generateLocalSecrets(['demo', 'acme']);
    const second = generateLocalSecrets(['demo', 'acme']);
    const config = loadConfig({ ...LOCAL_MODE_ENV, ...localSecretsEnv(first) });
    assert.deepEqual(config.tenants.map((tenant) => tenant.reviewers.length), [2, 2]);
    assert.equal(config.clients.allowPrivateCallbackUrls, true, 'local mode allows them because the stack says so');
    assert.notEqual(first.tenants[0]?.apiKey, second.tenants[0]?.apiKey);
  });
});

describe('weak secrets', () => {
  test('when a value is random and long enough, then it is strong; published, short or samey values are not', () => {
    assert.equal(weakSecretReason(generateLocalSecrets().pageTokenSecret), undefined);
    assert.equal(weakSecretReason(demo.apiKey), undefined);
    assert.match(weakSecretReason('ADMIN-KEY') ?? '', /published demo value/, 'case does not hide a published value');
    assert.match(weakSecretReason('x7Q2') ?? '', /shorter than 32/);
    assert.match(weakSecretReason('0123012301230123012301230123012301') ?? '', /fewer than 10 different characters/);
    assert.equal(weakSecretReason('A1b2C3d4E5f6', { minLength: 12 }), undefined, 'a format may set its own minimum');
  });
});

describe('processes refuse to start without their configuration', () => {
  const startWith = (script: string, args: string[], env: Record<string, string | undefined>) =>
    new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      // PATH and HOME only: nothing from the shell that runs the tests may stand in for a missing setting.
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, output }));
    });

  const processes: Array<[string, string[]]> = [
    ['api/main.ts', []],
    ['workers/main.ts', []],
  ];
  for (const [script, args] of processes) {
    test(`when ${script} starts with nothing set, then it exits with an error naming every missing setting`, async () => {
      const { code, output } = await startWith(script, args, {});
      assert.notEqual(code, 0);
      for (const name of ['SLOWLANE_ENV', 'SLOWLANE_TENANTS', 'API_PAGE_TOKEN_SECRET']) assert.match(output, new RegExp(name), output);
    });
  }

  const operatorCommands: Array<[string, string[]]> = [
    ['ops/replay-command.ts', ['invoice:demo:some-job', '--dry-run']],
    ['ops/ops-command.ts', ['patches']],
  ];
  for (const [script, args] of operatorCommands) {
    test(`when ${script} ${args[0]} starts with nothing set and no local stack, then it asks for the codec keys alone`, async () => {
      // A data folder without the stack's key file: the repository's own .data may hold one from `npm start`.
      const { code, output } = await startWith(script, args, { SLOWLANE_DATA_DIR: join(root, 'test', 'no-such-data-dir') });
      assert.notEqual(code, 0);
      assert.match(output, /PAYLOAD_CODEC_KEYS is required in production/, output);
      assert.doesNotMatch(output, /SLOWLANE_ENV|SLOWLANE_TENANTS|API_PAGE_TOKEN_SECRET|ANTHROPIC_API_KEY/, output);
    });
  }
});
