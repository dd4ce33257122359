import assert from '../support/assert';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, test } from '@jest/globals';
import { callbackUrlPolicy, checkCallbackUrl, guardedLookup, isNonPublicAddress, NonPublicCallbackAddressError } from '../../lib/callback-url';
import type { Config } from '../../lib/config';

const strict = { allowPrivate: false, requireHttps: false };
const permissive = { allowPrivate: true, requireHttps: false };
const production = { allowPrivate: false, requireHttps: true };

describe('callback URL policy', () => {
  test('when the address is loopback, private, link-local or otherwise not public, then it is refused', () => {
    const nonPublic = [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      'not-an-address',
    ];
    assert.deepEqual(nonPublic.filter((address) => !isNonPublicAddress(address)), []);
  });

  test('when the address is on the public internet, then it is allowed', () => {
    const publicAddresses = ['1.1.1.1', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
    assert.deepEqual(publicAddresses.filter((address) => isNonPublicAddress(address)), []);
  });

  test('when an IPv6 address carries a non-public IPv4 address in any legacy form, then it is refused', () => {
    const legacy = [
      '::127.0.0.1', // IPv4-compatible (deprecated)
      '::a9fe:a9fe', // the same, in hex: 169.254.169.254
      '::8.8.8.8', // IPv4-compatible is refused whatever it carries: nothing public uses it
      '::ffff:0:127.0.0.1', // IPv4-translated
      '::ffff:0:a00:1', // the same, in hex: 10.0.0.1
      '0:0:0:0:0:ffff:7f00:1', // IPv4-mapped, uncompressed
      '64:ff9b::10.0.0.1', // NAT64
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo hides its client address
      'fec0::1', // site-local
      'FEC0:0:0:0:0:0:0:1',
      '3fff::1', // documentation
    ];
    assert.deepEqual(legacy.filter((address) => !isNonPublicAddress(address)), []);
    assert.equal(isNonPublicAddress('2002:808:808::1'), false, '6to4 of a public address is public');
    assert.equal(isNonPublicAddress('64:ff9b::8.8.8.8'), false, 'NAT64 of a public address is public');
  });

  test('when a callback URL names a legacy IPv6 form of a private address, then the production policy refuses it', () => {
    for (const url of ['http://[::127.0.0.1]/hook', 'http://[::ffff:0:10.0.0.1]/', 'http://[2002:a9fe:a9fe::]/', 'http://[fec0::1]/']) {
      assert.equal(checkCallbackUrl(url, strict).ok, false, url);
      assert.equal(checkCallbackUrl(url, permissive).ok, true, url);
    }
  });

  test('when the scheme is not http(s) or the URL carries credentials, then it is refused whatever the deployment', () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@example.com/', 'not a url', 'https://example.com/#frag']) {
      const checked = checkCallbackUrl(url, permissive);
      assert.equal(checked.ok, false, url);
    }
  });

  test('when the host is a private literal or a local name, then it is refused unless the deployment allows it', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest/meta-data', 'http://localhost:3000/', 'http://metadata.google.internal/', 'http://10.0.0.5/']) {
      const refused = checkCallbackUrl(url, strict);
      assert.equal(refused.ok, false, url);
      if (!refused.ok) assert.match(refused.reason, /local|private/);
      assert.equal(checkCallbackUrl(url, permissive).ok, true, url);
    }
  });

  test('when the production policy reads a URL, then only https is accepted, however public the http one is', () => {
    for (const url of ['http://hooks.example.com/slowlane', 'http://93.184.216.34:8080/x', 'HTTP://hooks.example.com/']) {
      const refused = checkCallbackUrl(url, production);
      assert.equal(refused.ok, false, url);
      if (!refused.ok) assert.equal(refused.reason, 'must use https');
    }
    assert.equal(checkCallbackUrl('https://hooks.example.com/slowlane', production).ok, true);
    assert.equal(checkCallbackUrl('https://127.0.0.1/hook', production).ok, false, 'https does not make a private address public');
  });

  test('when the policy is taken from the config, then production requires https and local mode does not', () => {
    const clients = { allowPrivateCallbackUrls: false } as Config['clients'];
    assert.deepEqual(callbackUrlPolicy({ deployment: 'production', clients }), production);
    assert.deepEqual(callbackUrlPolicy({ deployment: 'local', clients }), strict);
  });

  test('when the URL is a public https or http address, then it is accepted', () => {
    assert.equal(checkCallbackUrl('https://hooks.example.com/slowlane?tenant=a', strict).ok, true);
    assert.equal(checkCallbackUrl('http://93.184.216.34:8080/x', strict).ok, true);
  });
});

describe('guarded DNS lookup (the check made again at delivery)', () => {
  const resolverAnswering = (...addresses: string[]): LookupFunction => (_hostname, _options, callback) =>
    callback(null, addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
  const lookUp = (lookup: LookupFunction, all: boolean) =>
    new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
      lookup('hooks.example.com', { all }, (error, address) => resolve({ error, address })),
    );

  test('when DNS answers with any private address, then the lookup fails and no address is handed to the socket', async () => {
    const { error, address } = await lookUp(guardedLookup(strict, resolverAnswering('93.184.216.34', '10.0.0.7')), true);
    assert.ok(error instanceof NonPublicCallbackAddressError, String(error));
    assert.match(error.message, /10\.0\.0\.7/);
    assert.deepEqual(address, []);
  });

  test('when DNS answers with public addresses, then they are passed on in the form the caller asked for', async () => {
    const lookup = guardedLookup(strict, resolverAnswering('93.184.216.34', '2606:2800:220:1::1'));
    const all = await lookUp(lookup, true);
    assert.equal(all.error, null);
    assert.deepEqual((all.address as LookupAddress[]).map((a) => a.address), ['93.184.216.34', '2606:2800:220:1::1']);
    const one = await lookUp(lookup, false);
    assert.equal(one.address, '93.184.216.34');
  });

  test('when the deployment allows private targets, then a private answer passes', async () => {
    const { error, address } = await lookUp(guardedLookup(permissive, resolverAnswering('127.0.0.1')), false);
    assert.equal(error, null);
    assert.equal(address, '127.0.0.1');
  });
});
