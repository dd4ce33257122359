import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { readBenchFlags } from '../../bench/bench-flags';
import { DEFAULT_SETTINGS as QUOTA_DEFAULTS, parseQuotaArgs } from '../../bench/quota/settings';

const USAGE = 'npm run bench -- example [--jobs 5] [--window 90s] [--sides a,b]';

describe('bench flags', () => {
  test('reads counts, durations and subsets, with fallbacks for absent flags', () => {
    const flags = readBenchFlags(
      ['--jobs', '12', '--window', '90s', '--sides', 'b'],
      ['jobs', 'window', 'sides', 'seed'],
      USAGE,
    );
    assert.equal(flags.count('jobs', 5), 12);
    assert.equal(flags.duration('window', 1), 90_000);
    assert.deepEqual(flags.subset('sides', ['a', 'b'], ['a', 'b']), ['b']);
    assert.equal(flags.count('seed', 7), 7);
  });

  test('stops with the usage on a bad value or an unknown flag', () => {
    const flags = readBenchFlags(
      ['--jobs', '1.5', '--window', 'soon', '--sides', 'a,c'],
      ['jobs', 'window', 'sides'],
      USAGE,
    );
    assert.throws(() => flags.count('jobs', 5), /--jobs must be a whole number[\s\S]*npm run bench -- example/);
    assert.throws(() => flags.duration('window', 1), /--window must be a duration/);
    assert.throws(() => flags.subset('sides', ['a', 'b'], ['a']), /--sides takes a and\/or b/);
    assert.throws(() => readBenchFlags(['--job', '3'], ['jobs'], USAGE), /--job[\s\S]*npm run bench -- example/);
  });

  test('gives the quota bench its defaults and the flags it is given', () => {
    assert.deepEqual(parseQuotaArgs([]), QUOTA_DEFAULTS);
    const settings = parseQuotaArgs(['--bulk', '300', '--latency', '900ms', '--sides', 'slowlane', '--share', '0.3']);
    assert.equal(settings.bulkJobs, 300);
    assert.equal(settings.interactiveShare, 0.3);
    assert.deepEqual(settings.sides, ['slowlane']);
    assert.equal(settings.simulator.latencyMs, 900);
    assert.throws(() => parseQuotaArgs(['--share', '0.95']), /--share must be between 0 and 0.9/);
  });
});
