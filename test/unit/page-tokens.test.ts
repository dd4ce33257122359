import assert from '../support/assert';
import { createHash } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { pageTokensFor } from '../../api/jobs/page-tokens';
import { Secret } from '../../lib/secret';

const secret = new Secret('page-token-test-secret');
const scope = "TenantId = 'demo' AND JobType = 'invoice'";
const temporalToken = Buffer.from('temporal next page token bytes');

describe('GET /jobs page tokens', () => {
  test('when a token this list gave out comes back, then it reads as the same Temporal token', () => {
    const tokens = pageTokensFor(secret, scope);
    assert.deepEqual(tokens.read(tokens.write(temporalToken)), temporalToken);
  });

  test('when a token is forged with an unkeyed checksum (the old scheme), then it is refused', () => {
    const bytes = Buffer.from('anything an attacker likes');
    const forged = `${bytes.toString('base64url')}.${createHash('sha256').update(bytes).digest('base64url').slice(0, 12)}`;
    assert.equal(pageTokensFor(secret, scope).read(forged), null);
  });

  test('when a token comes from another tenant, another filter or another key, then it is refused', () => {
    const token = pageTokensFor(secret, scope).write(temporalToken);
    assert.equal(pageTokensFor(secret, "TenantId = 'acme' AND JobType = 'invoice'").read(token), null);
    assert.equal(pageTokensFor(secret, `${scope} AND JobStatus = 'posted'`).read(token), null);
    assert.equal(pageTokensFor(new Secret('another-secret'), scope).read(token), null);
  });

  test('when a token is mangled anywhere, then it is refused', () => {
    const tokens = pageTokensFor(secret, scope);
    const token = tokens.write(temporalToken);
    for (let at = 0; at < token.length; at++) {
      const replacement = token[at] === 'A' ? 'B' : 'A';
      const mangled = token.slice(0, at) + replacement + token.slice(at + 1);
      if (mangled !== token) assert.equal(tokens.read(mangled), null, `changed at ${at}`);
    }
    for (const text of ['', '.', 'abc', 'a.b.c', `${token}.x`]) assert.equal(tokens.read(text), null, text);
  });
});
