import assert from '../support/assert';
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { DefaultPayloadConverter } from '@temporalio/common';
import type { JobsService } from '../../api/jobs-service';
import { isLoopbackPeer } from '../../api/codec-routes';
import { type RunningApi, startApiServer } from '../../api/server';
import type { Config } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { EncryptionCodec } from '../../lib/payload-codec/encryption-codec';
import { EnvKeyProvider } from '../../lib/payload-codec/key-provider';
import { Secret } from '../../lib/secret';
import { localTestConfig, TEST_OPERATOR, TEST_SECRETS } from '../support/test-credentials';
import { memoryAuditTrail } from '../support/memory-audit';

const UI = 'http://127.0.0.1:8233';
const converter = new DefaultPayloadConverter();
const invoice = { invoiceNumber: 'INV-77', totalAmount: 99.5 };
const asJson = (payload: { metadata?: Record<string, Uint8Array | null> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')])),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});

describe('the codec endpoint (/codec, the Temporal Web UI and CLI protocol)', () => {
  const codec = new EncryptionCodec(new EnvKeyProvider({ k1: new Secret(randomBytes(32).toString('base64')) }, undefined), { acceptPlaintext: false });
  const servers: RunningApi[] = [];
  let local: RunningApi;
  let production: RunningApi;
  const start = async (config: Config, host = '127.0.0.1') => {
    const api = await startApiServer(
      { config, jobs: {} as unknown as JobsService, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail(), codec: { codec, config } },
      { host, port: 0 },
    );
    servers.push(api);
    return api;
  };
  beforeAll(async () => {
    const config = localTestConfig({ TEMPORAL_WEB_UI_URL: UI });
    local = await start(config);
    production = await start({ ...config, deployment: 'production' });
  });
  afterAll(async () => {
    for (const api of servers) await api.close();
  });

  const post = (api: RunningApi, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/codec/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  test('when an operator encodes then decodes with their token, then the payload comes back and the encoded one is ciphertext', async () => {
    const auth = { authorization: `Bearer ${TEST_OPERATOR.token}`, 'x-namespace': 'slowlane' };
    const encoded = await post(production, 'encode', { payloads: [asJson(converter.toPayload(invoice))] }, auth);
    assert.equal(encoded.status, 200);
    const encodedBody = (await encoded.json()) as { payloads: Array<{ metadata: Record<string, string>; data: string }> };
    assert.equal(Buffer.from(encodedBody.payloads[0]!.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
    assert.ok(!Buffer.from(encodedBody.payloads[0]!.data, 'base64').toString('latin1').includes('INV-77'));
    const decoded = await post(production, 'decode', encodedBody, auth);
    assert.equal(decoded.status, 200);
    const [payload] = ((await decoded.json()) as { payloads: Array<{ metadata: Record<string, string>; data: string }> }).payloads;
    assert.deepEqual(JSON.parse(Buffer.from(payload!.data, 'base64').toString()), invoice);
  });

  test('when no credential or a tenant key is sent in production, then it is a 401, even from the Web UI origin', async () => {
    const [encoded] = await codec.encode([converter.toPayload(invoice)]);
    const attempts: Array<Record<string, string>> = [{}, { authorization: `Bearer ${TEST_SECRETS.tenants[0]?.apiKey ?? ''}` }, { origin: UI }];
    for (const headers of attempts) {
      const response = await post(production, 'decode', { payloads: [asJson(encoded!)] }, headers);
      assert.equal(response.status, 401, JSON.stringify(headers));
      assert.ok(!(await response.text()).includes('INV-77'));
    }
  });

  test("when the Web UI preflights from its origin, then CORS allows it with X-Namespace; another origin is refused", async () => {
    const preflight = (origin: string) =>
      fetch(`${production.url}/codec/decode`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' },
      });
    const allowed = await preflight(UI);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), UI);
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /X-Namespace/);
    const other = await preflight('http://evil.example');
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  test('when a caller on this machine asks in local mode without a credential, then the Web UI and the CLI are answered', async () => {
    const [encoded] = await codec.encode([converter.toPayload(invoice)]);
    const fromUi = await post(local, 'decode', { payloads: [asJson(encoded!)] }, { origin: UI, 'x-namespace': 'slowlane' });
    assert.equal(fromUi.status, 200);
    assert.equal(fromUi.headers.get('access-control-allow-origin'), UI);
    const fromCli = await post(local, 'decode', { payloads: [asJson(encoded!)] });
    assert.equal(fromCli.status, 200, 'the temporal CLI sends no Origin');
  });

  test('when a page of another origin asks in local mode, then it needs a credential even from loopback', async () => {
    const [encoded] = await codec.encode([converter.toPayload(invoice)]);
    for (const origin of ['http://evil.example', 'http://rebound.example:3000', 'null']) {
      const response = await post(local, 'decode', { payloads: [asJson(encoded!)] }, { origin });
      assert.equal(response.status, 401, origin);
      assert.ok(!(await response.text()).includes('INV-77'));
    }
    const forged = await post(local, 'encode', { payloads: [asJson(converter.toPayload(invoice))] }, { origin: 'http://evil.example' });
    assert.equal(forged.status, 401, 'nor may it have payloads encrypted for it');
  });

  test('when the peer is not on this machine, then local mode needs a credential whatever Origin says', async () => {
    const [encoded] = await codec.encode([converter.toPayload(invoice)]);
    // Served on this machine's own network address, so the connection's peer is that address, not loopback.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((nic) => nic && nic.family === 'IPv4' && !nic.internal)?.address;
    assert.ok(external, 'the test needs a non-loopback IPv4 address on this machine');
    const api = await start(localTestConfig({ TEMPORAL_WEB_UI_URL: UI }), external);
    const fromUiOrigin = await post(api, 'decode', { payloads: [asJson(encoded!)] }, { origin: UI, 'x-namespace': 'slowlane' });
    assert.equal(fromUiOrigin.status, 401);
    assert.ok(!(await fromUiOrigin.text()).includes('INV-77'));
    assert.equal((await post(api, 'decode', { payloads: [asJson(encoded!)] })).status, 401);
    const operator = await post(api, 'decode', { payloads: [asJson(encoded!)] }, { authorization: `Bearer ${TEST_OPERATOR.token}` });
    assert.equal(operator.status, 200);
  });

  test('when peer addresses are judged, then only 127.0.0.0/8 and ::1 (also IPv4-mapped) count as this machine', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackPeer(address), true, address);
    for (const address of [undefined, '', '192.0.2.2', '10.0.0.1', '::ffff:10.0.0.1', 'fd00::2', '::', '0.0.0.0', '128.0.0.1', '::2']) {
      assert.equal(isLoopbackPeer(address), false, String(address));
    }
  });

  test('when a payload was altered or the body is malformed or for another namespace, then the answer is a 4xx that says why', async () => {
    const auth = { authorization: `Bearer ${TEST_OPERATOR.token}` };
    const [encoded] = await codec.encode([converter.toPayload(invoice)]);
    const altered = { ...asJson(encoded!), data: Buffer.from(Buffer.from(encoded!.data!).map((b, i) => (i === 20 ? b ^ 1 : b))).toString('base64') };
    const tampered = await post(production, 'decode', { payloads: [altered] }, auth);
    assert.equal(tampered.status, 422);
    assert.match(((await tampered.json()) as { error: { message: string } }).error.message, /failed authentication/);
    assert.equal((await post(production, 'decode', { nope: 1 }, auth)).status, 400);
    assert.equal((await post(production, 'decode', { payloads: [] }, { ...auth, 'x-namespace': 'other' })).status, 400);
  });
});
