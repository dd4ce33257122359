import { Context } from '@temporalio/activity';
import { LedgerRejectedError, LedgerUnavailableError } from '../../common/errors';
import type { Config } from '../../lib/config';
import type { PostInvoiceToLedgerInput, PostInvoiceToLedgerResult } from './contracts';

/**
 * Posts with the job id as Idempotency-Key: a retried or duplicated activity, or a job re-run after a reset,
 * gets the entry it already made instead of a second one.
 */
export function createPostInvoiceToLedger(deps: { ledger: Config['ledger']; fetch?: typeof fetch }) {
  const doFetch = deps.fetch ?? fetch;
  return async function postInvoiceToLedger(input: PostInvoiceToLedgerInput): Promise<PostInvoiceToLedgerResult> {
    const context = Context.current();
    let response: Response;
    try {
      response = await doFetch(`${deps.ledger.url}/entries`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': input.jobId,
          ...(deps.ledger.apiKey ? { authorization: `Bearer ${deps.ledger.apiKey.reveal()}` } : {}),
        },
        body: JSON.stringify({ tenantId: input.tenantId, jobId: input.jobId, invoice: input.invoice }),
        signal: context.cancellationSignal,
      });
    } catch (error) {
      throw new LedgerUnavailableError(`ledger unreachable: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    const body = (await response.json().catch(() => ({}))) as { id?: string; error?: { code?: string; message?: string } };
    if (response.status === 200 || response.status === 201) {
      if (!body.id) throw new LedgerUnavailableError(`ledger answered ${response.status} without an entry id`);
      return { entryId: body.id, replayed: response.status === 200, attempt: context.info.attempt };
    }
    const what = `ledger answered ${response.status}${body.error ? ` ${body.error.code}: ${body.error.message}` : ''}`;
    if (response.status === 409) {
      throw new LedgerRejectedError(`${what} (this job was already posted with different fields)`);
    }
    if (response.status >= 500 || response.status === 408 || response.status === 429) {
      throw new LedgerUnavailableError(what);
    }
    throw new LedgerRejectedError(what);
  };
}
