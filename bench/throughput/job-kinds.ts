import { safeOrder } from '../../local/samples/sample-orders';

/**
 * What the benchmark submits through `POST /jobs`, per job type (`--job-type`). Each body is unique, so every job
 * stores its own input and none is answered from an earlier one.
 */
export interface BenchJobKind {
  type: string;
  request(marker: string): { body: FormData | string; headers: Record<string, string> };
}

const invoice: BenchJobKind = {
  type: 'invoice',
  request(marker) {
    const form = new FormData();
    form.set('type', 'invoice');
    const text = [
      'INVOICE',
      'Seller: Throughput Measurement Ltd',
      `Invoice number: TP-${marker}`,
      'Invoice date: 2026-11-20',
      'Total due: 119.00 EUR',
      'Subtotal: 100.00 EUR',
      'VAT 19%: 19.00 EUR',
    ].join('\n');
    form.set('file', new Blob([text]), 'invoice.txt');
    return { body: form, headers: {} };
  },
};

/** A returning customer whose checks all pass: the simulator approves it at once, so every job settles unreviewed. */
const orderScore: BenchJobKind = {
  type: 'order.score',
  request(marker) {
    return {
      body: JSON.stringify({ type: 'order.score', input: safeOrder(`TP-${marker}`) }),
      headers: { 'content-type': 'application/json' },
    };
  },
};

export const BENCH_JOB_KINDS: Record<string, BenchJobKind> = { invoice, 'order.score': orderScore };
