import { Router, type Request, type Response } from 'express';
import type { Logger } from '../../lib/logger';
import { parseEntryRequest, parseIdempotencyKey } from './entry-request-validation';
import { applyFaultAfterCommit, unavailableError } from './fault-responses';
import type { FaultInjector } from './fault-injector';
import { readJsonBody } from './json-body';
import type { Ledger } from './ledger';
import type { EntryFilter } from './ledger-book';
import { LedgerHttpError } from './ledger-http-error';

const ENTRY_FILTERS = ['tenantId', 'jobId', 'idempotencyKey'] as const;

export function createEntriesRouter(deps: { ledger: Ledger; faults: FaultInjector; log: Logger }): Router {
  const { ledger, faults, log } = deps;
  const router = Router();

  router.post('/entries', async (req: Request, res: Response) => {
    // Taken on arrival, so a fault armed for "the next post" hits it whatever the post turns out to be.
    const fault = faults.take();
    if (fault?.kind === 'unavailable') throw unavailableError(res);
    const idempotencyKey = parseIdempotencyKey(req.headers['idempotency-key']);
    const request = parseEntryRequest(await readJsonBody(req, res));
    const result = await ledger.post({ idempotencyKey, request });
    if (result.outcome === 'conflict') throw keyReusedError(idempotencyKey, result.existing.id);
    if (await applyFaultAfterCommit({ fault, req, log })) return;
    if (result.outcome === 'replayed') {
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(200).json(result.entry);
      return;
    }
    log.info({ entryId: result.entry.id, idempotencyKey, jobId: request.jobId }, 'entry created');
    res.setHeader('Location', `/entries/${result.entry.id}`);
    res.status(201).json(result.entry);
  });

  router.get('/entries', (req: Request, res: Response) => {
    res.json({ entries: ledger.list(parseEntryFilter(req.query)) });
  });

  router.get('/entries/:id', (req: Request<{ id: string }>, res: Response) => {
    const entry = ledger.findById(req.params.id);
    if (!entry) {
      throw new LedgerHttpError({
        status: 404,
        code: 'entry_not_found',
        message: `no entry with id "${req.params.id}"; list entries with GET /entries?idempotencyKey=...`,
      });
    }
    res.json(entry);
  });

  return router;
}

function parseEntryFilter(query: Record<string, unknown>): EntryFilter {
  const filter: EntryFilter = {};
  for (const [name, value] of Object.entries(query)) {
    const known = ENTRY_FILTERS.find((filterName) => filterName === name);
    if (known === undefined) {
      throw invalidQuery(`unknown filter "${name}"; filter by ${ENTRY_FILTERS.join(', ')}`);
    }
    if (typeof value !== 'string') throw invalidQuery(`give the filter "${name}" once, as a plain value`);
    filter[known] = value;
  }
  return filter;
}

function keyReusedError(idempotencyKey: string, existingEntryId: string): LedgerHttpError {
  return new LedgerHttpError({
    status: 409,
    code: 'idempotency_key_reused',
    message:
      `Idempotency-Key "${idempotencyKey}" was already used for a different body (entry ${existingEntryId}); ` +
      'use a new key for a new entry, or resend the original body to get the original entry',
  });
}

function invalidQuery(message: string): LedgerHttpError {
  return new LedgerHttpError({ status: 400, code: 'invalid_query', message });
}
