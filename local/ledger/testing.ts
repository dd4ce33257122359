import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, type Logger } from '../../lib/logger';
import { JOURNAL_FILE_NAME } from './entry-journal';
import type { EntryRequest } from './ledger-entry';
import { startLedgerServer, type RunningLedgerServer } from './server';

/** A ledger on a free loopback port over a fresh temp data dir, for tests in this and other folders. */
export interface TemporaryLedger extends RunningLedgerServer {
  dataDir: string;
  journalPath: string;
  /** Closes the server and deletes its data dir. */
  dispose(): Promise<void>;
}

export async function startTemporaryLedger(input: { dataDir?: string; log?: Logger } = {}): Promise<TemporaryLedger> {
  const dataDir = input.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'slowlane-ledger-')));
  const server = await startLedgerServer(
    { host: '127.0.0.1', port: 0, dataDir },
    { log: input.log ?? createLogger('ledger', 'silent') },
  );
  return {
    ...server,
    dataDir,
    journalPath: path.join(dataDir, JOURNAL_FILE_NAME),
    dispose: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function sampleEntryRequest(overrides: Partial<EntryRequest> = {}): EntryRequest {
  return {
    tenantId: 'demo',
    jobId: 'invoice:demo:order-1001',
    invoice: {
      invoiceNumber: 'INV-2024-0042',
      issuer: 'Acme Office Supplies GmbH',
      issueDate: '2024-03-15',
      dueDate: '2024-04-14',
      currency: 'EUR',
      totalAmount: 119,
      subtotalAmount: 100,
      taxAmount: 19,
      lineItems: [{ description: 'Printer paper A4, 10 reams', quantity: 10, unitPrice: 10, amount: 100 }],
    },
    ...overrides,
  };
}

/** `POST /entries` as Slowlane's postInvoiceToLedger activity sends it. */
export function postLedgerEntry(input: { url: string; idempotencyKey: string; body: unknown }): Promise<Response> {
  return fetch(`${input.url}/entries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': input.idempotencyKey },
    body: JSON.stringify(input.body),
  });
}
