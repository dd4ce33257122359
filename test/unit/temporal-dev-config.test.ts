import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import { devServerArgs, devServerPorts, loadTemporalDevConfig } from '../../local/stack/temporal-dev-config';

describe('temporal-dev.yaml', () => {
  const devConfig = loadTemporalDevConfig();

  test('when nothing is set, then npm start serves the dev server on the ports temporal-dev.yaml names', () => {
    const ports = devServerPorts(localTestConfig().temporal, { port: 17233, ui: { enabled: true, port: 18233 } });
    assert.deepEqual(ports, { temporal: 17233, temporalUi: 18233 });
  });

  test('when TEMPORAL_ADDRESS and TEMPORAL_WEB_UI_URL are set, then they win over the file', () => {
    const config = localTestConfig({ TEMPORAL_ADDRESS: '127.0.0.1:9233', TEMPORAL_WEB_UI_URL: 'http://127.0.0.1:9234' });
    assert.deepEqual(devServerPorts(config.temporal, devConfig), { temporal: 9233, temporalUi: 9234 });
  });

  test('when the file disables the UI, then no UI port is planned and the server starts headless', () => {
    const ui = { enabled: false, port: 8233 };
    assert.deepEqual(devServerPorts(localTestConfig().temporal, { port: 7233, ui }), { temporal: 7233 });
    const args = devServerArgs({ ...devConfig, ui }, { port: 7233, uiPort: 8233, dataDir: '/tmp/x' });
    assert.ok(args.includes('--headless'));
    assert.ok(!args.includes('--ui-port'));
  });

  test('when the shipped file is read, then it names the namespace, a SQLite file and the search attributes the API needs', () => {
    assert.equal(devConfig.namespace, 'slowlane');
    assert.match(devConfig.dbFile, /\.db$/);
    for (const name of ['TenantId', 'JobType', 'JobStatus', 'NeedsReview']) assert.ok(devConfig.searchAttributes[name], name);
  });

  test('when the shipped file is read, then its SQLite file is written through a write-ahead log, not a journal synced per write', () => {
    const args = devServerArgs(devConfig, { port: 7233, dataDir: '/tmp/x' });
    const pragmas = args.flatMap((arg, i) => (args[i - 1] === '--sqlite-pragma' ? [arg] : []));
    assert.deepEqual(pragmas.sort(), ['journal_mode=wal', 'synchronous=normal']);
  });
});
