import assert from '../support/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';

const REPO_ROOT = join(__dirname, '..', '..');

/** Runs `npm run replay -- …` against a Temporal address where nothing listens: only argument checks can pass. */
function replayCli(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'ops', 'replay-command.ts'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:9', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the replay command line', () => {
  test('when --limit or --rate is not a usable number, then the tool refuses before it touches any job', () => {
    for (const [flag, value] of [
      ['--limit', '10x'],
      ['--limit', '0'],
      ['--rate', 'fast'],
    ] as const) {
      const { code, output } = replayCli(['--dry-run', '--query', "JobStatus = 'dead_letter'", flag, value]);
      assert.equal(code, 1, output);
      assert.match(output, new RegExp(`^${flag} ${value}: give`, 'm'), output);
    }
  });

  test('when neither job ids nor a query are given, then it prints how to use it', () => {
    const { code, output } = replayCli([]);
    assert.equal(code, 2);
    assert.match(output, /npm run replay -- <jobId…>/);
  });
});
