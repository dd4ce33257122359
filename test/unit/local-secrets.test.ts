import assert from '../support/assert';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from '@jest/globals';
import { loadConfig } from '../../lib/config';
import { LOCAL_MODE_ENV, loadOrCreateLocalSecrets, localSecretsEnv } from '../../local/stack/local-secrets';

describe("the local stack's own credentials (npm start, npm test)", () => {
  const dirs: string[] = [];
  const freshDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'slowlane-secrets-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  test('when the stack starts in a data folder, then it keeps the credentials it made there, readable by its owner only', async () => {
    const dir = await freshDir();
    const first = await loadOrCreateLocalSecrets(dir);
    assert.equal(((await stat(join(dir, 'local-secrets.json'))).mode & 0o777).toString(8), '600');
    const again = await loadOrCreateLocalSecrets(dir);
    assert.deepEqual(again, first, 'a restarted npm start keeps its keys, and the reviewers stay signed in');
    const elsewhere = await loadOrCreateLocalSecrets(await freshDir());
    assert.notEqual(elsewhere.tenants[0]?.apiKey, first.tenants[0]?.apiKey, 'another data folder, other keys');
  });

  test('when a later run needs a tenant the kept file lacks, then a complete new set is made', async () => {
    const dir = await freshDir();
    await loadOrCreateLocalSecrets(dir, ['demo']);
    const both = await loadOrCreateLocalSecrets(dir, ['demo', 'acme']);
    assert.deepEqual(both.tenants.map((tenant) => tenant.id), ['demo', 'acme']);
  });

  test('when the product loads them in local mode, then every check passes', async () => {
    const secrets = await loadOrCreateLocalSecrets(await freshDir(), ['demo', 'acme']);
    const config = loadConfig({ ...LOCAL_MODE_ENV, ...localSecretsEnv(secrets) });
    assert.deepEqual(config.tenants.map((tenant) => tenant.id), ['demo', 'acme']);
    assert.equal(config.people.operators.length, 1);
  });
});
