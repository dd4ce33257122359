import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { API_KEY_IDENTITY, type Caller } from '../../api/auth';
import { createSocketTokens } from '../../api/socket/socket-tokens';
import { pageTokensFor } from '../../api/jobs/page-tokens';
import { localTestConfig } from '../support/test-credentials';

const config = localTestConfig({ WS_TOKEN_TTL: '60s' });
const demo = config.tenants.find((tenant) => tenant.id === 'demo');
if (!demo) throw new Error('the test config has a demo tenant');
const caller: Caller = { tenant: demo, role: 'api', identity: API_KEY_IDENTITY, via: 'api-key' };

describe('WebSocket tokens', () => {
  test('when a token is redeemed within its lifetime, then it names the caller it was minted for, once', () => {
    let now = 1_000_000;
    const tokens = createSocketTokens(config, () => now);
    const { token, expiresAt } = tokens.mint(caller);
    assert.equal(expiresAt.getTime(), now + 60_000);
    now += 59_000;
    const redeemed = tokens.redeem(token);
    assert.equal(redeemed?.tenant.id, 'demo');
    assert.equal(redeemed?.identity, API_KEY_IDENTITY);
    assert.equal(tokens.redeem(token), undefined, 'a used token opens nothing');
  });

  test('when a token has expired, then it is refused', () => {
    let now = 1_000_000;
    const tokens = createSocketTokens(config, () => now);
    const { token } = tokens.mint(caller);
    now += 60_001;
    assert.equal(tokens.redeem(token), undefined);
  });

  test('when another replica keyed by the same secret redeems a token, then it accepts it; a token with edited claims or another secret is refused', () => {
    const { token } = createSocketTokens(config).mint(caller);
    const [claims, tag] = token.split('.') as [string, string];
    const edited = Buffer.from(Buffer.from(claims, 'base64url').toString('utf8').replace('"demo"', '"acme"')).toString('base64url');
    assert.equal(createSocketTokens(config).redeem(`${edited}.${tag}`), undefined);
    const otherSecret = localTestConfig({ API_PAGE_TOKEN_SECRET: 'another-secret-of-the-right-length-0123456789abcdef' });
    assert.equal(createSocketTokens(otherSecret).redeem(token), undefined);
    assert.equal(createSocketTokens(config).redeem(token)?.tenant.id, 'demo');
  });

  test('when a page token signed with the same secret is offered, then it does not pass as a socket token', () => {
    const pageToken = pageTokensFor(config.api.pageTokenSecret, '').write(Buffer.from(JSON.stringify({ tenant: 'demo', role: 'api', identity: 'api-key', via: 'api-key', expires: 9e15, nonce: 'n' })));
    assert.equal(createSocketTokens(config).redeem(pageToken), undefined);
  });

  test('when the token is not two base64url parts, then it is refused without throwing', () => {
    const tokens = createSocketTokens(config);
    for (const junk of ['', '.', 'a.b.c', 'not a token', '%%%.%%%']) assert.equal(tokens.redeem(junk), undefined, junk);
  });
});
