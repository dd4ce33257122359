import assert from '../support/assert';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { LedgerEntry } from '../../local/ledger/ledger-entry';
import { postLedgerEntry, sampleEntryRequest, startTemporaryLedger, type TemporaryLedger } from '../../local/ledger/testing';

async function listEntries(ledger: TemporaryLedger, query = ''): Promise<LedgerEntry[]> {
  const response = await fetch(`${ledger.url}/entries${query}`);
  assert.equal(response.status, 200);
  const body = (await response.json()) as { entries: LedgerEntry[] };
  return body.entries;
}

async function journalLineCount(ledger: TemporaryLedger): Promise<number> {
  const content = await readFile(ledger.journalPath, 'utf8');
  return content.split('\n').filter((line) => line !== '').length;
}

describe('ledger: idempotent posting', () => {
  let ledger: TemporaryLedger;
  beforeAll(async () => {
    ledger = await startTemporaryLedger();
  });
  afterAll(async () => {
    await ledger.dispose();
  });

  test('when a key is new, then the entry is created with 201, a led_ id and a Location', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:create' });
    const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'invoice:demo:create', body });
    assert.equal(response.status, 201);
    const entry = (await response.json()) as LedgerEntry;
    assert.match(entry.id, /^led_[0-9a-f]{32}$/);
    assert.equal(response.headers.get('location'), `/entries/${entry.id}`);
    assert.equal(response.headers.get('idempotent-replayed'), null);
    assert.equal(entry.idempotencyKey, 'invoice:demo:create');
    assert.equal(entry.tenantId, body.tenantId);
    assert.equal(entry.jobId, body.jobId);
    assert.deepEqual(entry.invoice, body.invoice);
    assert.match(entry.bodySha256, /^[0-9a-f]{64}$/);
    assert.ok(!Number.isNaN(Date.parse(entry.createdAt)));

    const fetched = await fetch(`${ledger.url}${response.headers.get('location') ?? ''}`);
    assert.equal(fetched.status, 200);
    assert.deepEqual(await fetched.json(), entry);
  });

  test('when the same key and body are posted again, then 200 returns the same entry marked as replayed', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:replay' });
    const first = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'replay-1', body });
    const second = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'replay-1', body });
    assert.equal(first.status, 201);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await second.json(), await first.json());
    assert.equal((await listEntries(ledger, '?idempotencyKey=replay-1')).length, 1);
  });

  test('when a replay lists the same fields in another key order, then it is still the same body', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:key-order' });
    const first = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'key-order-1', body });
    const reordered = {
      invoice: Object.fromEntries(Object.entries(body.invoice).reverse()),
      jobId: body.jobId,
      tenantId: body.tenantId,
    };
    assert.notEqual(JSON.stringify(reordered), JSON.stringify(body));
    const second = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'key-order-1', body: reordered });
    assert.equal(second.status, 200);
    assert.equal(((await second.json()) as LedgerEntry).id, ((await first.json()) as LedgerEntry).id);
  });

  test('when the same key comes with a different body, then 409 idempotency_key_reused and nothing is written', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:conflict' });
    await postLedgerEntry({ url: ledger.url, idempotencyKey: 'conflict-1', body });
    const changed = { ...body, invoice: { ...body.invoice, totalAmount: 120 } };
    const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: 'conflict-1', body: changed });
    assert.equal(response.status, 409);
    const error = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(error.error.code, 'idempotency_key_reused');
    assert.match(error.error.message, /conflict-1/);
    const entries = await listEntries(ledger, '?idempotencyKey=conflict-1');
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.invoice.totalAmount, 119);
  });

  test('when 50 first posts with one key arrive at once, then exactly one entry exists and all get it', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:race' });
    const linesBefore = await journalLineCount(ledger);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postLedgerEntry({ url: ledger.url, idempotencyKey: 'race-1', body })),
    );
    const statuses = responses.map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 201).length, 1);
    assert.equal(statuses.filter((status) => status === 200).length, 49);
    const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as LedgerEntry).id)));
    assert.equal(ids.size, 1);
    assert.equal((await listEntries(ledger, '?idempotencyKey=race-1')).length, 1);
    assert.equal(await journalLineCount(ledger), linesBefore + 1);
  });

  test('when racing posts with one key carry different bodies, then one wins and the others get 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        postLedgerEntry({
          url: ledger.url,
          idempotencyKey: 'race-conflict-1',
          body: sampleEntryRequest({ jobId: `invoice:demo:race-conflict-${index}` }),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    assert.deepEqual(statuses, [201, ...Array<number>(9).fill(409)]);
    assert.equal((await listEntries(ledger, '?idempotencyKey=race-conflict-1')).length, 1);
  });

  test('when 50 posts with different keys arrive at once, then each gets its own entry and journal line', async () => {
    const linesBefore = await journalLineCount(ledger);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        postLedgerEntry({
          url: ledger.url,
          idempotencyKey: `parallel-${index}`,
          body: sampleEntryRequest({ tenantId: 'parallel', jobId: `invoice:parallel:${index}` }),
        }),
      ),
    );
    assert.ok(responses.every((response) => response.status === 201));
    assert.equal((await listEntries(ledger, '?tenantId=parallel')).length, 50);
    assert.equal(await journalLineCount(ledger), linesBefore + 50);
  });
});

describe('ledger: reading entries', () => {
  let ledger: TemporaryLedger;
  const posted: LedgerEntry[] = [];
  beforeAll(async () => {
    ledger = await startTemporaryLedger();
    const posts = [
      { key: 'read-a1', tenantId: 'tenant-a', jobId: 'job-1' },
      { key: 'read-b1', tenantId: 'tenant-b', jobId: 'job-2' },
      { key: 'read-a2', tenantId: 'tenant-a', jobId: 'job-3' },
    ];
    for (const post of posts) {
      const body = sampleEntryRequest({ tenantId: post.tenantId, jobId: post.jobId });
      const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: post.key, body });
      posted.push((await response.json()) as LedgerEntry);
    }
  });
  afterAll(async () => {
    await ledger.dispose();
  });

  test('when listing without filters, then every entry comes back oldest first', async () => {
    assert.deepEqual(
      (await listEntries(ledger)).map((entry) => entry.id),
      posted.map((entry) => entry.id),
    );
  });

  test('when listing by tenantId, jobId or idempotencyKey, then only matching entries come back', async () => {
    assert.deepEqual(
      (await listEntries(ledger, '?tenantId=tenant-a')).map((entry) => entry.idempotencyKey),
      ['read-a1', 'read-a2'],
    );
    assert.deepEqual(
      (await listEntries(ledger, '?jobId=job-2')).map((entry) => entry.idempotencyKey),
      ['read-b1'],
    );
    assert.deepEqual(
      (await listEntries(ledger, '?tenantId=tenant-a&idempotencyKey=read-a2')).map((entry) => entry.jobId),
      ['job-3'],
    );
    assert.deepEqual(await listEntries(ledger, '?tenantId=nobody'), []);
  });

  test('when asking for health and stats, then both answer with the counts so far', async () => {
    assert.equal((await fetch(`${ledger.url}/healthz`)).status, 200);
    const stats = await (await fetch(`${ledger.url}/_ledger/stats`)).json();
    assert.deepEqual(stats, { entries: 3, created: 3, replayed: 0, conflicts: 0, faultsInjected: 0 });
  });
});
