import assert from '../support/assert';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { parseCommand, UsageError } from '../../cli/arguments';
import { findDocuments, idempotencyKeyFor } from '../../cli/documents';
import { IDEMPOTENCY_KEY_PATTERN } from '../../common/job-id';

describe('slowlane CLI: arguments and documents', () => {
  test('when submit is given files and flags, then they are read as the user meant', () => {
    const command = parseCommand(['submit', 'a.pdf', 'folder', '--priority', 'bulk', '--wait', '--timeout', '30m']);
    assert.deepEqual(command, { name: 'submit', paths: ['a.pdf', 'folder'], type: 'invoice', priority: 'bulk', wait: true, timeoutMs: 1_800_000, json: false });
    assert.equal((parseCommand(['submit', '-', '--type', 'order.score']) as { type: string }).type, 'order.score');
    assert.deepEqual(parseCommand(['status', 'invoice:demo:k', '--json']), { name: 'status', jobId: 'invoice:demo:k', json: true });
    assert.deepEqual(parseCommand([]), { name: 'help' });
  });

  test('when submit is given --deadline, then a duration counts from now and a date-time is kept with its offset resolved', () => {
    const now = Date.parse('2026-12-04T19:00:00Z');
    const inTwoHours = parseCommand(['submit', 'a.pdf', '--priority', 'bulk', '--deadline', '2h'], now) as { deadline?: string };
    assert.equal(inTwoHours.deadline, '2026-12-04T21:00:00.000Z');
    const at = parseCommand(['submit', 'a.pdf', '--deadline', '2026-12-05T08:00:00+01:00'], now) as { deadline?: string };
    assert.equal(at.deadline, '2026-12-05T07:00:00.000Z');
    assert.equal((parseCommand(['submit', 'a.pdf'], now) as { deadline?: string }).deadline, undefined);
    assert.throws(() => parseCommand(['submit', 'a.pdf', '--deadline', 'tomorrow'], now), /--deadline tomorrow/);
    assert.throws(() => parseCommand(['submit', 'a.pdf', '--deadline', '2026-12-05'], now), /--deadline/);
    assert.throws(() => parseCommand(['schedule', 'list', '--deadline', '2h'], now), /--deadline: submit flags/);
  });

  test('when a duration flag is given, then it reads the units the settings read, and a bare number asks for a unit', () => {
    const now = Date.parse('2026-12-04T19:00:00Z');
    const timeoutOf = (text: string) => (parseCommand(['submit', 'a.pdf', '--timeout', text], now) as { timeoutMs: number }).timeoutMs;
    assert.equal(timeoutOf('90s'), 90_000);
    assert.equal(timeoutOf('1h30m'), 5_400_000);
    assert.equal(timeoutOf('2d'), 172_800_000);
    assert.equal(timeoutOf('1500ms'), 1_500);
    assert.equal((parseCommand(['submit', 'a.pdf', '--deadline', '1h30m'], now) as { deadline?: string }).deadline, '2026-12-04T20:30:00.000Z');
    assert.throws(() => parseCommand(['submit', 'a.pdf', '--timeout', '30']), /--timeout 30: give a unit, e\.g\. 30s, 30m or 30h/);
    assert.throws(() => parseCommand(['submit', 'a.pdf', '--deadline', '3600'], now), /--deadline 3600: give a unit/);
  });

  test('when the command line is wrong, then a usage error says what is wrong', () => {
    assert.throws(() => parseCommand(['submit']), UsageError);
    assert.throws(() => parseCommand(['submit', 'a.pdf', '--priority', 'urgent']), /--priority/);
    assert.throws(() => parseCommand(['submit', 'a.pdf', '--timeout', 'soon']), /--timeout/);
    assert.throws(() => parseCommand(['status']), /exactly one job id/);
    assert.throws(() => parseCommand(['frobnicate']), /unknown command/);
    assert.throws(() => parseCommand(['submit', 'a.json', '--type', 'pizza']), /--type must be one of invoice, order\.score/);
  });

  test('when two files have the same content, then they get the same key; different content, a different one', () => {
    const a = idempotencyKeyFor(new TextEncoder().encode('invoice 1'));
    assert.equal(a, idempotencyKeyFor(new TextEncoder().encode('invoice 1')));
    assert.notEqual(a, idempotencyKeyFor(new TextEncoder().encode('invoice 2')));
    assert.match(a, IDEMPOTENCY_KEY_PATTERN, 'the API accepts it as an Idempotency-Key');
  });

  test('when folders are given, then every .pdf and .txt inside is found once, hidden files and others skipped', async () => {
    const root = await mkdtemp(join(tmpdir(), 'slowlane-cli-docs-'));
    await mkdir(join(root, 'nested', 'deeper'), { recursive: true });
    await mkdir(join(root, '.git'));
    for (const file of ['a.pdf', 'B.PDF', 'notes.md', 'nested/c.txt', 'nested/deeper/d.pdf', '.git/e.pdf', '.hidden.pdf']) {
      await writeFile(join(root, file), 'x');
    }
    const found = await findDocuments([root, join(root, 'a.pdf')]);
    assert.deepEqual(
      found.map((path) => path.slice(root.length + 1)),
      ['B.PDF', 'a.pdf', 'nested/c.txt', 'nested/deeper/d.pdf'],
    );
    await assert.rejects(findDocuments([join(root, 'missing')]), /no such file or folder/);
  });
});
