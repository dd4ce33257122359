import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { generateVAPIDKeys } from 'web-push';
import { loadConfig } from '../../lib/config';
import { configRefusal } from '../support/config-refusal';
import { authSecretProblem, p256PublicKeyProblem } from '../../lib/push/p256-keys';
import { checkPushEndpoint } from '../../lib/push/push-endpoint';
import { localTestEnv } from '../support/test-credentials';

const pair = generateVAPIDKeys();
const push = { PUSH_ENABLED: 'true', VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'mailto:ops@example.com' };

describe('Web Push settings fail closed', () => {
  test('when push is enabled with a whole key pair, then the config carries it', () => {
    const config = loadConfig(localTestEnv(push));
    assert.equal(config.push.enabled, true);
    assert.equal(config.push.vapid?.publicKey, pair.publicKey);
    assert.equal(config.push.vapid?.privateKey.reveal(), pair.privateKey);
  });

  test('when push is enabled without VAPID keys, then no process starts, and the error names them', () => {
    assert.match(configRefusal(localTestEnv({ ...push, VAPID_PRIVATE_KEY: undefined })), /PUSH_ENABLED=true needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT/);
  });

  test('when the private key is not the public key’s pair, then no process starts', () => {
    assert.match(configRefusal(localTestEnv({ ...push, VAPID_PRIVATE_KEY: generateVAPIDKeys().privateKey })), /VAPID_PRIVATE_KEY is not the private key of VAPID_PUBLIC_KEY/);
  });

  test('when production is told to allow loopback http endpoints, then it still takes https only', () => {
    assert.equal(loadConfig(localTestEnv({ ...push, PUSH_ALLOW_LOOPBACK_HTTP: 'true' })).push.allowLoopbackHttp, true);
    const production = loadConfig(
      localTestEnv({ ...push, SLOWLANE_ENV: 'production', PUSH_ALLOW_LOOPBACK_HTTP: 'true', ANTHROPIC_API_KEY: 'k', SPEECH_API_KEY: 'k', SLOWLANE_OPERATORS: undefined }),
    );
    assert.equal(production.push.allowLoopbackHttp, false);
  });

  test('when push is off, then no key is needed and none is carried', () => {
    const config = loadConfig(localTestEnv({ PUSH_ENABLED: 'false', VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined }));
    assert.equal(config.push.vapid, undefined);
  });
});

describe('push subscription checks', () => {
  const policy = { allowPrivate: false, requireHttps: true };

  test('when an endpoint is http on loopback, then only the local allowance takes it', () => {
    assert.equal(checkPushEndpoint('http://127.0.0.1:8790/push/x', policy, true).ok, true);
    assert.deepEqual(checkPushEndpoint('http://127.0.0.1:8790/push/x', policy, false), { ok: false, reason: 'must use https' });
    assert.deepEqual(checkPushEndpoint('http://push.example.com/x', policy, true), { ok: false, reason: 'must use https' });
  });

  test('when an https endpoint points into a private network, then it is refused unless private targets are allowed', () => {
    assert.equal(checkPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', policy, false).ok, true);
    assert.equal(checkPushEndpoint('https://10.0.0.5/push', policy, false).ok, false);
  });

  test('when keys have the wrong length or are no point on the curve, then each says why', () => {
    const good = generateVAPIDKeys().publicKey;
    assert.equal(p256PublicKeyProblem(good), undefined);
    assert.match(p256PublicKeyProblem(good.slice(0, 40)) ?? '', /65 bytes/);
    const offCurve = Buffer.from([4, ...Buffer.alloc(64, 1)]).toString('base64url');
    assert.equal(p256PublicKeyProblem(offCurve), 'is not a point on the P-256 curve');
    assert.equal(authSecretProblem(Buffer.alloc(16, 3).toString('base64url')), undefined);
    assert.match(authSecretProblem(Buffer.alloc(12, 3).toString('base64url')) ?? '', /16 bytes \(got 12\)/);
    assert.equal(authSecretProblem('not base64url!'), 'must be base64url');
  });
});
