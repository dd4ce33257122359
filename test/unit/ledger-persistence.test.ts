import assert from '../support/assert';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { describe, test } from '@jest/globals';
import pino from 'pino';
import { JournalCorruptError } from '../../local/ledger/entry-journal';
import type { LedgerEntry } from '../../local/ledger/ledger-entry';
import { postLedgerEntry, sampleEntryRequest, startTemporaryLedger, type TemporaryLedger } from '../../local/ledger/testing';

async function listEntries(ledger: TemporaryLedger): Promise<LedgerEntry[]> {
  return ((await (await fetch(`${ledger.url}/entries`)).json()) as { entries: LedgerEntry[] }).entries;
}

async function postSample(ledger: TemporaryLedger, key: string): Promise<LedgerEntry> {
  const response = await postLedgerEntry({
    url: ledger.url,
    idempotencyKey: key,
    body: sampleEntryRequest({ jobId: `invoice:demo:${key}` }),
  });
  assert.equal(response.status, 201);
  return (await response.json()) as LedgerEntry;
}

/** A logger whose lines the test can read, to check that a dropped line is reported. */
function capturingLogger(): { log: pino.Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino(
    { level: 'warn' },
    { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  return { log, lines };
}

describe('ledger: persistence', () => {
  test('when the server restarts on the same data dir, then entries are still there and replays keep their id', async () => {
    const first = await startTemporaryLedger();
    const created = await postSample(first, 'persist-1');
    const createdSecond = await postSample(first, 'persist-2');
    await first.close();

    const second = await startTemporaryLedger({ dataDir: first.dataDir });
    try {
      assert.deepEqual(
        (await listEntries(second)).map((entry) => entry.id),
        [created.id, createdSecond.id],
      );
      const fetched = await fetch(`${second.url}/entries/${created.id}`);
      assert.deepEqual(await fetched.json(), created);
      const replay = await postLedgerEntry({
        url: second.url,
        idempotencyKey: 'persist-1',
        body: sampleEntryRequest({ jobId: 'invoice:demo:persist-1' }),
      });
      assert.equal(replay.status, 200);
      assert.equal(((await replay.json()) as LedgerEntry).id, created.id);
      const conflict = await postLedgerEntry({
        url: second.url,
        idempotencyKey: 'persist-1',
        body: sampleEntryRequest(),
      });
      assert.equal(conflict.status, 409);
    } finally {
      await second.dispose();
    }
  });

  test('when the journal ends in a torn line, then it is dropped with a warning and later appends stay readable', async () => {
    const first = await startTemporaryLedger();
    const kept = [await postSample(first, 'torn-1'), await postSample(first, 'torn-2')];
    await first.close();
    const intact = await readFile(first.journalPath, 'utf8');
    await appendFile(first.journalPath, '{"id":"led_torn","idempotencyKey":"torn-3","tenan');

    const { log, lines } = capturingLogger();
    const second = await startTemporaryLedger({ dataDir: first.dataDir, log });
    try {
      assert.deepEqual(
        (await listEntries(second)).map((entry) => entry.id),
        kept.map((entry) => entry.id),
      );
      assert.ok(lines.some((line) => line.level === 40 && /torn last journal line/.test(line.msg)));
      assert.equal(await readFile(first.journalPath, 'utf8'), intact, 'the torn bytes were cut off');
      const third = await postSample(second, 'torn-3');
      await second.close();

      const reopened = await startTemporaryLedger({ dataDir: first.dataDir });
      try {
        assert.deepEqual(
          (await listEntries(reopened)).map((entry) => entry.id),
          [...kept, third].map((entry) => entry.id),
        );
      } finally {
        await reopened.close();
      }
    } finally {
      await second.dispose();
    }
  });

  test('when the last line is complete but not an entry, then it is dropped as torn too', async () => {
    const first = await startTemporaryLedger();
    const kept = await postSample(first, 'torn-nul-1');
    await first.close();
    await appendFile(first.journalPath, Buffer.from([0, 0, 0, 0x0a]));

    const second = await startTemporaryLedger({ dataDir: first.dataDir });
    try {
      assert.deepEqual(
        (await listEntries(second)).map((entry) => entry.id),
        [kept.id],
      );
    } finally {
      await second.dispose();
    }
  });

  test('when a line before the last is damaged, then the server refuses to start', async () => {
    const first = await startTemporaryLedger();
    await postSample(first, 'damaged-1');
    await first.close();
    const journal = await readFile(first.journalPath, 'utf8');
    assert.notEqual(journal, '');
    await writeFile(first.journalPath, `not json\n${journal}`);

    // A server that wrongly starts is closed again, so the test fails instead of hanging on an open port.
    const attempt = startTemporaryLedger({ dataDir: first.dataDir }).then((unexpected) => unexpected.close());
    await assert.rejects(attempt, JournalCorruptError);
    await first.dispose();
  });
});
