import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { BenchFlagError, readBenchFlags } from '../../bench/bench-flags';
import { DEFAULT_SETTINGS as FAIRNESS_DEFAULTS, parseFairnessArgs } from '../../bench/fairness/settings';
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

  test('when a flag is unknown, given without its value or as --name=value of another name, then it is refused by name before anything is read', () => {
    assert.throws(
      () => readBenchFlags(['--jobs', '3', '--seeds', '4'], ['jobs', 'seed'], USAGE),
      (error: unknown) => {
        assert.ok(error instanceof BenchFlagError);
        assert.match(error.message, /^--seeds is not a flag of this bench\nnpm run bench -- example/);
        return true;
      },
    );
    assert.throws(
      () => readBenchFlags(['--jobs=3', '--windows=9s'], ['jobs', 'window'], USAGE),
      /BenchFlagError: --windows is not/,
    );
    assert.throws(
      () => readBenchFlags(['--jobs'], ['jobs'], USAGE),
      (error: unknown) => {
        assert.ok(error instanceof BenchFlagError);
        assert.match(error.message, /--jobs[\s\S]*npm run bench -- example/);
        return true;
      },
    );
    assert.equal(readBenchFlags(['--jobs=3'], ['jobs'], USAGE).count('jobs', 5), 3);
  });

  test('when a count has a least value, then a smaller one is refused with that bound and the bound itself is read', () => {
    const flags = readBenchFlags(['--runs', '0', '--payloads', '100'], ['runs', 'payloads'], USAGE);
    assert.throws(() => flags.count('runs', 5, 1), /--runs must be a whole number ≥ 1\nnpm run bench -- example/);
    assert.equal(flags.count('payloads', 20_000, 100), 100);
    assert.equal(flags.count('runs', 5), 0);
  });

  test('when a flag takes one of a few values, then it reads that value, the fallback when absent, and refuses any other', () => {
    const types = ['order.score', 'invoice'] as const;
    assert.equal(
      readBenchFlags(['--type', 'invoice'], ['type'], USAGE).choice('type', types, 'order.score'),
      'invoice',
    );
    assert.equal(readBenchFlags([], ['type'], USAGE).choice('type', types, 'order.score'), 'order.score');
    assert.throws(
      () => readBenchFlags(['--type', 'invoice,order.score'], ['type'], USAGE).choice('type', types, 'order.score'),
      /BenchFlagError: --type takes one of order.score, invoice\nnpm run bench -- example/,
    );
  });

  test('when a bench has switches, then a given one is on, an absent one off, and a value after a switch is refused', () => {
    const flags = readBenchFlags(['--timeline', '--jobs', '3'], ['jobs'], USAGE, ['timeline', 'loop-delay']);
    assert.equal(flags.on('timeline'), true);
    assert.equal(flags.on('loop-delay'), false);
    assert.equal(flags.count('jobs', 5), 3);
    assert.throws(() => readBenchFlags(['--timeline', 'yes'], [], USAGE, ['timeline']), BenchFlagError);
    assert.throws(() => readBenchFlags(['--timeline'], ['jobs'], USAGE), /--timeline is not a flag of this bench/);
  });

  test('when a bench checks a value itself, then refuse stops it with the message and the usage', () => {
    const flags = readBenchFlags([], ['jobs'], USAGE);
    assert.throws(
      () => flags.refuse('--jobs must be even'),
      /BenchFlagError: --jobs must be even\nnpm run bench -- example/,
    );
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

  test('gives the fairness bench its defaults and the flags it is given', () => {
    assert.deepEqual(parseFairnessArgs([]), FAIRNESS_DEFAULTS);
    const settings = parseFairnessArgs([
      '--flood',
      '200',
      '--grace',
      '30s',
      '--weights',
      '1,3',
      '--itpm',
      '9000',
      '--sides',
      'fifo',
    ]);
    assert.equal(settings.floodJobs, 200);
    assert.equal(settings.graceMs, 30_000);
    assert.deepEqual(settings.weights, { flood: 1, small: 3 });
    assert.equal(settings.simulator.inputTokensPerMinute, 9_000);
    assert.deepEqual(settings.sides, ['fifo']);
    assert.throws(() => parseFairnessArgs(['--weights', '1']), /--weights takes two positive numbers/);
    assert.throws(() => parseFairnessArgs(['--sides', 'fair,lifo']), /--sides takes fair and\/or fifo/);
    assert.throws(() => parseFairnessArgs(['--floods', '9']), /--floods is not a flag of this bench/);
  });
});
