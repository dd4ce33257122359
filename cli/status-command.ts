import { isInvoiceResult } from '../common/job-types/invoice/result';
import { table, type Terminal } from './progress';
import type { SlowlaneClient } from './slowlane-client';

/** `slowlane status <jobId>`: the job as the API sees it. Returns the exit code. */
export async function statusCommand(client: SlowlaneClient, options: { jobId: string; json: boolean }, terminal: Terminal): Promise<number> {
  const { job } = await client.get(options.jobId);
  if (options.json) {
    terminal.out(JSON.stringify(job, null, 2));
    return 0;
  }
  const invoice = isInvoiceResult(job.result) ? job.result : undefined;
  const rows: Array<[string, string | undefined]> = [
    ['job', job.jobId],
    ['status', `${job.status}${job.step && job.status === 'processing' ? ` (${job.step})` : ''}`],
    ['file', job.fileName],
    ['priority', job.priority],
    ['submitted', job.submittedAt],
    ['closed', job.closedAt],
    ['confidence', job.confidence !== undefined ? `${Math.round(job.confidence * 100)}%` : undefined],
    ['review by', job.status === 'awaiting_review' ? job.reviewDeadline : undefined],
    ['reviewed', job.review ? `${job.review.decision} by ${job.review.reviewer}${job.review.reason ? `: ${job.review.reason}` : ''}` : undefined],
    ['type', job.type],
    ['ledger entry', invoice?.ledgerEntryId],
    ['total', invoice ? `${invoice.fields.totalAmount} ${invoice.fields.currency}` : undefined],
    ['result', job.result && !invoice ? JSON.stringify(job.result) : undefined],
    ['error', job.error ? `${job.error.type}: ${job.error.message}` : undefined],
    ['tokens', job.usage ? `${job.usage.inputTokens} in / ${job.usage.outputTokens} out, $${job.usage.costUsd.toFixed(4)}` : undefined],
    ['detail', job.detailed ? undefined : 'no worker answered; showing what the server knows'],
    ['temporal', job.links.temporal],
  ];
  for (const line of table(rows.filter((row): row is [string, string] => row[1] !== undefined))) terminal.out(line);
  return job.status === 'failed' || job.status === 'dead_letter' ? 1 : 0;
}
