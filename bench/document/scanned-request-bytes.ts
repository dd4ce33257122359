import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBenchFlags } from '../bench-flags';
import { connectBenchClient, startBenchStack } from '../bench-stack';
import { generateLocalSecrets, type LocalTenant } from '../../local/stack/local-secrets';
import type { RequestBytes } from '../../local/simulator/files/request-bytes';
import { scannedPdf } from './scanned-pages';

const USAGE = 'usage: npm run bench -- document --scans [--pages 12] [--invoice-pages 2]';

type Mode = 'inline' | 'files';

interface JobBytes {
  /** Every request body the provider received for the job, uploads included. */
  total: number;
  messages: number;
  files: number;
  uploads: number;
  calls: number;
  /** Files the provider still holds once the job's run is closed (the document) or waits on review (the invoice). */
  filesLeft: number;
}

/**
 * `npm run bench -- document --scans`: request bytes the provider receives for one scanned document (the document
 * job, interactive so its calls go live) and one scanned invoice (classify and extract), with scans inline
 * (MODEL_FILES_API=false) and then uploaded once to the Files API (the default), each on a fresh local stack with
 * zero model latency. The simulator counts the bodies it receives (/_sim/request-bytes).
 */
export async function runScannedRequestBytes(argv: string[]): Promise<void> {
  const flags = readBenchFlags(argv, ['pages', 'invoice-pages'], USAGE);
  const pages = flags.count('pages', 12, 1);
  const invoicePages = flags.count('invoice-pages', 2, 1);
  const documentPdf = await scannedPdf(pages, 1);
  const invoicePdf = await scannedPdf(invoicePages, 2);
  console.log(`document --scans: a ${pages}-page scanned document (${documentPdf.length} bytes), a ${invoicePages}-page scanned invoice (${invoicePdf.length} bytes)`);
  const results: Record<Mode, { document: JobBytes; invoice: JobBytes }> = {
    inline: await measure('inline', documentPdf, invoicePdf),
    files: await measure('files', documentPdf, invoicePdf),
  };
  const ratio = (job: 'document' | 'invoice') => results.files[job].total / results.inline[job].total;
  console.table({
    'document inline': results.inline.document,
    'document files': results.files.document,
    'invoice inline': results.inline.invoice,
    'invoice files': results.files.invoice,
  });
  console.log(`request bytes with the Files API ÷ inline: document ${ratio('document').toFixed(3)}, invoice ${ratio('invoice').toFixed(3)}`);
  const report = {
    benchmark: 'document-scans',
    command: `npm run bench -- document --scans ${argv.join(' ')}`.trim(),
    finishedAt: new Date().toISOString(),
    settings: { pages, documentPdfBytes: documentPdf.length, invoicePages, invoicePdfBytes: invoicePdf.length },
    ...results,
    ratios: { documentFilesOfInline: ratio('document'), invoiceFilesOfInline: ratio('invoice') },
  };
  await mkdir(join(__dirname, '..', 'results'), { recursive: true });
  await writeFile(join(__dirname, '..', 'results', 'document-scans.json'), `${JSON.stringify(report, null, 2)}\n`);
}

async function measure(mode: Mode, documentPdf: Buffer, invoicePdf: Buffer): Promise<{ document: JobBytes; invoice: JobBytes }> {
  const secrets = generateLocalSecrets();
  const apiKey = (secrets.tenants[0] as LocalTenant).apiKey;
  const bench = await startBenchStack(`document-scans-${mode}`, { secrets, productEnv: { MODEL_FILES_API: mode === 'files' ? 'true' : 'false' } });
  const { stack } = bench;
  const { client, connection } = await connectBenchClient(stack);
  const sim = (path: string, init?: RequestInit) => fetch(`${stack.urls.simulator}${path}`, init);
  try {
    await sim('/_sim/config', { method: 'PUT', body: JSON.stringify({ latencyBaseMs: 0, latencyPerOutputTokenMs: 0, embedLatencyBaseMs: 0, embedLatencyPerThousandTokensMs: 0 }) });
    const submit = async (pdf: Buffer, fields: Record<string, string>): Promise<string> => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      form.set('file', new Blob([new Uint8Array(pdf)]), 'scan.pdf');
      const response = await fetch(`${stack.urls.api}/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': randomUUID() },
        body: form,
      });
      const body = (await response.json()) as { jobId?: string };
      if (response.status !== 202 || !body.jobId) throw new Error(`submission answered ${response.status}: ${JSON.stringify(body)}`);
      return body.jobId;
    };
    const counted = async <T>(work: () => Promise<T>): Promise<JobBytes> => {
      const before = await snapshot(sim);
      await work();
      const after = await snapshot(sim);
      const left = ((await (await sim('/v1/files?limit=1000', { headers: { 'x-api-key': 'bench', 'anthropic-beta': 'files-api-2025-04-14' } })).json()) as { data: unknown[] }).data.length;
      const delta = (key: keyof RequestBytes) => after.bytes[key] - before.bytes[key];
      return {
        total: delta('messages') + delta('countTokens') + delta('batches') + delta('files'),
        messages: delta('messages'),
        files: delta('files'),
        uploads: after.bytes.fileUploads - before.bytes.fileUploads,
        calls: after.calls - before.calls,
        filesLeft: left,
      };
    };

    const document = await counted(async () => {
      const jobId = await submit(documentPdf, { type: 'document', priority: 'interactive' });
      await client.workflow.getHandle(jobId).result();
    });
    const invoice = await counted(async () => {
      const jobId = await submit(invoicePdf, { type: 'invoice' });
      // A scan is read with low confidence: the job waits on a reviewer with both of its model calls made.
      for (let waited = 0; ; waited += 200) {
        const job = (await (await fetch(`${stack.urls.api}/jobs/${encodeURIComponent(jobId)}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { status: string };
        if (!['queued', 'processing'].includes(job.status)) break;
        if (waited > 120_000) throw new Error(`the invoice job is still ${job.status}`);
        await sleep(200);
      }
    });
    return { document, invoice };
  } finally {
    await connection.close();
    await bench.stop();
  }
}

async function snapshot(sim: (path: string) => Promise<Response>): Promise<{ bytes: RequestBytes & { fileUploads: number }; calls: number }> {
  const bytes = (await (await sim('/_sim/request-bytes')).json()) as RequestBytes & { fileUploads: number };
  const stats = (await (await sim('/_sim/stats')).json()) as { requests: number };
  return { bytes, calls: stats.requests };
}
