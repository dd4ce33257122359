import assert from '../support/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { types } from 'node:util';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { LedgerEntry } from '../../local/ledger/ledger-entry';
import { postLedgerEntry, sampleEntryRequest } from '../../local/ledger/testing';

const repoRoot = path.resolve(__dirname, '../..');

interface LedgerProcess {
  child: ChildProcess;
  url: string;
  /** Every stdout line so far, parsed. */
  logLines: Array<Record<string, unknown>>;
}

function spawnLedger(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'local/ledger/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts `local/ledger/main.ts` and resolves with the URL from its one "listening" JSON line. */
function startLedgerProcess(dataDir: string): Promise<LedgerProcess> {
  const child = spawnLedger({ LEDGER_PORT: '0', LEDGER_DATA_DIR: dataDir });
  const logLines: Array<Record<string, unknown>> = [];
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`ledger exited with ${String(code)} before listening`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      logLines.push(parsed);
      if (parsed.msg === 'ledger listening' && typeof parsed.url === 'string') {
        resolve({ child, url: parsed.url, logLines });
      }
    });
  });
}

async function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal };
}

describe('ledger: the process (tsx local/ledger/main.ts)', () => {
  let dataDir: string;
  const started: ChildProcess[] = [];
  const start = async (): Promise<LedgerProcess> => {
    const ledger = await startLedgerProcess(dataDir);
    started.push(ledger.child);
    return ledger;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'slowlane-ledger-process-'));
  }, 60_000);
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  test('when an entry was acknowledged and the process is killed, then a new process serves and replays it', async () => {
    const body = sampleEntryRequest({ jobId: 'invoice:demo:killed' });
    const first = await start();
    assert.equal(first.logLines.filter((line) => line.msg === 'ledger listening').length, 1);
    assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const created = await postLedgerEntry({ url: first.url, idempotencyKey: 'killed-1', body });
    assert.equal(created.status, 201);
    const entry = (await created.json()) as LedgerEntry;
    first.child.kill('SIGKILL');
    assert.equal((await exitOf(first.child)).signal, 'SIGKILL');

    const second = await start();
    const fetched = await fetch(`${second.url}/entries/${entry.id}`);
    assert.deepEqual(await fetched.json(), entry);
    const replay = await postLedgerEntry({ url: second.url, idempotencyKey: 'killed-1', body });
    assert.equal(replay.status, 200);
    assert.equal(((await replay.json()) as LedgerEntry).id, entry.id);

    second.child.kill('SIGTERM');
    assert.deepEqual(await exitOf(second.child), { code: 0, signal: null });
    assert.ok(second.logLines.some((line) => line.msg === 'ledger stopped'));
  }, 60_000);

  test('when a slow answer is held back, then SIGTERM still stops the process once the in-flight grace is over', async () => {
    const ledger = await start();
    const armed = await fetch(`${ledger.url}/_ledger/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'slow', delayMs: 300_000 }),
    });
    assert.equal(armed.status, 200);
    const held = postLedgerEntry({
      url: ledger.url,
      idempotencyKey: 'held-1',
      body: sampleEntryRequest({ jobId: 'invoice:demo:held' }),
    }).catch((error: unknown) => error);
    // The post is committed before its answer is held back; once it is listed, it is in flight.
    for (let i = 0; i < 100; i++) {
      const listed = (await (await fetch(`${ledger.url}/entries?idempotencyKey=held-1`)).json()) as { entries: unknown[] };
      if (listed.entries.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    ledger.child.kill('SIGTERM');
    // Without the fix the held-back answer kept the process alive for the whole delay, past this test's timeout.
    assert.deepEqual(await exitOf(ledger.child), { code: 0, signal: null });
    assert.ok(ledger.logLines.some((line) => line.msg === 'ledger stopped'));
    // isNativeError, not instanceof: fetch's error comes from Node's realm, not from the vm context Jest runs this in.
    assert.ok(types.isNativeError(await held), 'the held-back answer never came');
  }, 60_000);

  test('when a setting is invalid, then the process exits 1 with a message naming the variable', async () => {
    const child = spawnLedger({ LEDGER_PORT: 'eighty', LEDGER_DATA_DIR: dataDir });
    started.push(child);
    // 'close' rather than 'exit': it waits for stdout to be fully read.
    const closed = once(child, 'close');
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    await closed;
    assert.equal(child.exitCode, 1);
    assert.match(stdout, /LEDGER_PORT=eighty must be a whole number/);
  }, 60_000);
});
