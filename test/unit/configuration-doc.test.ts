import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { productAreas } from '../../lib/config/product-areas';
import { SettingsReader } from '../../lib/settings/read-settings';
import { CONFIGURATION_DOC_PATH, configurationDoc, REGENERATE_COMMAND } from '../../local/docs/configuration-doc';
import { ledgerStandInArea } from '../../local/ledger/options';
import { simulatorArea } from '../../local/simulator/options';

const root = join(__dirname, '..', '..');
const everyArea = [...productAreas, simulatorArea, ledgerStandInArea];
const everySetting = everyArea.flatMap((area) => Object.values(area.settings));

describe('docs/configuration.md', () => {
  test('when the setting tables change, then the committed document must be regenerated', () => {
    const committed = readFileSync(join(root, CONFIGURATION_DOC_PATH), 'utf8');
    assert.ok(
      committed === configurationDoc(),
      `${CONFIGURATION_DOC_PATH} is stale: run \`${REGENERATE_COMMAND}\` and commit the result`,
    );
  });

  test('when the staleness message names a command, then that command is the generator', () => {
    const scripts = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const script = REGENERATE_COMMAND.replace(/^npm run /, '');
    assert.equal(scripts[script], 'tsx local/docs/write-configuration-doc.ts');
  });

  test('when generated, then every setting of every table has its row, once', () => {
    const doc = configurationDoc();
    for (const setting of everySetting) {
      const rows = doc.split('\n').filter((line) => line.startsWith(`| \`${setting.env}\` |`));
      assert.equal(rows.length, 1, `${setting.env} should have exactly one row`);
    }
  });

  test('when a secret is documented, then its row says so', () => {
    const doc = configurationDoc();
    for (const env of ['ANTHROPIC_API_KEY', 'SLOWLANE_TENANTS', 'TEMPORAL_API_KEY', 'SLOWLANE_OPERATORS', 'API_PAGE_TOKEN_SECRET']) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${env}\` |`)) ?? '';
      assert.match(row, /secret \|/, env);
    }
    const port = doc.split('\n').find((line) => line.startsWith('| `API_PORT` |')) ?? '';
    assert.doesNotMatch(port, /secret/);
  });
});

describe('the setting tables', () => {
  test('when any two settings are compared, then no env name is defined twice', () => {
    const names = everySetting.map((setting) => setting.env);
    const repeated = names.filter((name, index) => names.indexOf(name) !== index);
    assert.deepEqual(repeated, []);
  });

  for (const deployment of ['local', 'production'] as const) {
    test(`when nothing is set in ${deployment}, then every default parses with its own type`, () => {
      const reader = new SettingsReader([], deployment);
      for (const area of everyArea) reader.readTable(area.settings);
      const problems = (() => {
        try {
          reader.finish();
          return '';
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      })();
      // Both report the settings required everywhere (the local stack generates its secrets); production also its own.
      const expected =
        deployment === 'production'
          ? /^Invalid configuration:\n {2}- SLOWLANE_ENV is required\n {2}- SLOWLANE_TENANTS is required\n {2}- PAYLOAD_CODEC_KEYS is required in production\n {2}- ANTHROPIC_API_KEY is required in production\n {2}- SPEECH_API_KEY is required in production\n {2}- API_PAGE_TOKEN_SECRET is required$/
          : /^Invalid configuration:\n {2}- SLOWLANE_ENV is required\n {2}- SLOWLANE_TENANTS is required\n {2}- API_PAGE_TOKEN_SECRET is required$/;
      assert.match(problems, expected);
    });
  }
});
