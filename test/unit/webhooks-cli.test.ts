import assert from '../support/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';

const REPO_ROOT = join(__dirname, '..', '..');

/** Runs `npm run webhooks -- …` against a Temporal address where nothing listens: only argument checks can pass. */
function webhooksCli(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'ops', 'webhooks-command.ts'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:9', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the webhooks command line', () => {
  test('when redeliver names no delivery, or the command is unknown, then it prints how to use it', () => {
    for (const args of [['redeliver'], ['resend', 'webhook:x'], []]) {
      const { code, output } = webhooksCli(args);
      assert.equal(code, 2, output);
      assert.match(output, /npm run webhooks -- redeliver <deliveryId…>/);
    }
  });

  test('when --limit is not a usable number, then it refuses before it connects', () => {
    const { code, output } = webhooksCli(['given-up', '--limit', 'lots']);
    assert.equal(code, 1, output);
    assert.match(output, /^--limit lots: give/m);
  });
});
