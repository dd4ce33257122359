import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, test } from '@jest/globals';
import { submit, waitForJob, invoiceResult } from '../support/api-client';
import { realInvoices } from '../support/real-invoices';

describe('the real invoices through the whole pipeline', () => {
  for (const invoice of realInvoices()) {
    test(`${invoice.name}: ends posted or awaiting review, never an error`, async () => {
      const { status, body } = await submit(new Uint8Array(readFileSync(invoice.path)), { fileName: basename(invoice.path) });
      assert.equal(status, 202, JSON.stringify(body));
      const done = await waitForJob(body.jobId as string, ['posted', 'awaiting_review', 'failed', 'rejected']);
      assert.ok(['posted', 'awaiting_review'].includes(done.status ?? ''), JSON.stringify(done));
      if (done.status === 'posted') {
        // Posted without a person means every required field was confident; it must then be right.
        assert.equal(invoiceResult(done)?.fields.invoiceNumber, invoice.expected.invoice_number);
        if (invoice.expected.amount !== undefined) assert.equal(invoiceResult(done)?.fields.totalAmount, invoice.expected.amount);
      }
    });
  }
});
