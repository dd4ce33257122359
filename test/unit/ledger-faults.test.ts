import assert from '../support/assert';
import { afterAll, beforeAll, beforeEach, describe, test } from '@jest/globals';
import type { LedgerEntry } from '../../local/ledger/ledger-entry';
import { postLedgerEntry, sampleEntryRequest, startTemporaryLedger, type TemporaryLedger } from '../../local/ledger/testing';

interface Stats {
  entries: number;
  created: number;
  replayed: number;
  conflicts: number;
  faultsInjected: number;
}

describe('ledger: fault injection', () => {
  let ledger: TemporaryLedger;

  const armFault = async (fault: Record<string, unknown>): Promise<void> => {
    const response = await fetch(`${ledger.url}/_ledger/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fault),
    });
    assert.equal(response.status, 200);
  };
  const entriesFor = async (idempotencyKey: string): Promise<LedgerEntry[]> => {
    const response = await fetch(`${ledger.url}/entries?idempotencyKey=${idempotencyKey}`);
    return ((await response.json()) as { entries: LedgerEntry[] }).entries;
  };
  const stats = async (): Promise<Stats> => (await (await fetch(`${ledger.url}/_ledger/stats`)).json()) as Stats;

  beforeAll(async () => {
    ledger = await startTemporaryLedger();
  });
  beforeEach(async () => {
    assert.equal((await fetch(`${ledger.url}/_ledger/faults`, { method: 'DELETE' })).status, 204);
  });
  afterAll(async () => {
    await ledger.dispose();
  });

  test('when commit_then_fail answers 500, then the entry is durable and the retry gets it back with 200', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:commit-500' });
    const statsBefore = await stats();
    await armFault({ kind: 'commit_then_fail' });

    const failed = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'commit-500', body });
    assert.equal(failed.status, 500);
    assert.equal(((await failed.json()) as { error: { code: string } }).error.code, 'injected_failure');
    const committed = await entriesFor('commit-500');
    assert.equal(committed.length, 1, 'the failed answer hid a committed entry');

    const retry = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'commit-500', body });
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(((await retry.json()) as LedgerEntry).id, committed[0]?.id);
    assert.equal((await entriesFor('commit-500')).length, 1);

    const statsAfter = await stats();
    assert.equal(statsAfter.created - statsBefore.created, 1);
    assert.equal(statsAfter.replayed - statsBefore.replayed, 1);
    assert.equal(statsAfter.faultsInjected - statsBefore.faultsInjected, 1);
  });

  test('when commit_then_fail drops the connection, then the client sees no answer and the retry gets the entry', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:commit-reset' });
    await armFault({ kind: 'commit_then_fail', failWith: 'connection_reset' });

    // By name: fetch's TypeError is Node's own, not the TypeError of the vm context Jest runs this file in.
    await assert.rejects(postLedgerEntry({ url: ledger.url, idempotencyKey: 'commit-reset', body }), { name: 'TypeError' });
    const committed = await entriesFor('commit-reset');
    assert.equal(committed.length, 1);

    const retry = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'commit-reset', body });
    assert.equal(retry.status, 200);
    assert.equal(((await retry.json()) as LedgerEntry).id, committed[0]?.id);
  });

  test('when unavailable is armed twice, then two posts get 503 without writing and the third creates', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:unavailable' });
    await armFault({ kind: 'unavailable', times: 2 });

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'unavailable-1', body });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '1');
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'service_unavailable');
      assert.equal((await entriesFor('unavailable-1')).length, 0);
    }
    const third = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'unavailable-1', body });
    assert.equal(third.status, 201);
  });

  test('when slow is armed, then the post is still answered correctly and the fault is used up', async () => {
    await armFault({ kind: 'slow', delayMs: 50 });
    const armed = (await (await fetch(`${ledger.url}/_ledger/faults`)).json()) as { fault: { remaining: number } };
    assert.equal(armed.fault.remaining, 1);

    const body = sampleEntryRequest({ jobId: 'invoice:demo:slow' });
    const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'slow-1', body });
    assert.equal(response.status, 201);
    const spent = (await (await fetch(`${ledger.url}/_ledger/faults`)).json()) as { fault: unknown };
    assert.equal(spent.fault, null);
  });

  test('when faults are cleared, then posts behave normally again', async () => {
    await armFault({ kind: 'unavailable', times: 5 });
    assert.equal((await fetch(`${ledger.url}/_ledger/faults`, { method: 'DELETE' })).status, 204);
    const body = sampleEntryRequest({ jobId: 'invoice:demo:cleared' });
    const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'cleared-1', body });
    assert.equal(response.status, 201);
  });
});

describe('ledger: a commit_then_fail entry survives a restart', () => {
  test('when the server restarts after commit_then_fail, then the retry still gets the committed entry', async () => {
    const first = await startTemporaryLedger();
    const body = sampleEntryRequest({ jobId: 'invoice:demo:restart-after-fault' });
    try {
      await fetch(`${first.url}/_ledger/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'commit_then_fail' }),
      });
      const failed = await postLedgerEntry({ url: first.url, idempotencyKey: 'restart-fault', body });
      assert.equal(failed.status, 500);
    } finally {
      await first.close();
    }
    const second = await startTemporaryLedger({ dataDir: first.dataDir });
    try {
      const retry = await postLedgerEntry({ url: second.url, idempotencyKey: 'restart-fault', body });
      assert.equal(retry.status, 200);
      const all = (await (await fetch(`${second.url}/entries`)).json()) as { entries: LedgerEntry[] };
      assert.equal(all.entries.length, 1);
      assert.equal(((await retry.json()) as LedgerEntry).id, all.entries[0]?.id);
    } finally {
      await second.dispose();
    }
  });
});
