import { setTimeout as delay } from 'node:timers/promises';
import type { Request, Response } from 'express';
import type { Logger } from '../../lib/logger';
import type { FaultSpec } from './fault-spec';
import { LedgerHttpError } from './ledger-http-error';

/** `unavailable`: refuse before reading or writing anything, like a service that is down or restarting. */
export function unavailableError(res: Response): LedgerHttpError {
  res.setHeader('Retry-After', '1');
  return new LedgerHttpError({
    status: 503,
    code: 'service_unavailable',
    message: 'the ledger is unavailable (injected fault); retry with the same Idempotency-Key',
  });
}

/**
 * Runs after the post is committed. `commit_then_fail` makes the client believe the post failed
 * although the entry is durable — the case only an idempotent retry gets right. Returns true when
 * the fault has taken over the answer.
 */
export async function applyFaultAfterCommit(input: {
  fault: FaultSpec | undefined;
  req: Request;
  log: Logger;
}): Promise<boolean> {
  const { fault, req, log } = input;
  if (fault?.kind === 'slow') {
    // Unref'd: a held-back answer (up to 5 minutes) must not keep a ledger that was told to stop alive.
    await delay(fault.delayMs, undefined, { ref: false });
    return false;
  }
  if (fault?.kind !== 'commit_then_fail') return false;
  log.warn({ failWith: fault.failWith }, 'injected fault: entry committed, answer withheld');
  if (fault.failWith === 'connection_reset') {
    req.socket.destroy();
    return true;
  }
  throw new LedgerHttpError({
    status: 500,
    code: 'injected_failure',
    message: 'the entry may have been committed (injected fault); retry with the same Idempotency-Key',
  });
}
