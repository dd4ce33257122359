import type { Client } from '@temporalio/client';
import type { Config } from '../lib/config';
import type { DeadLetterFilter } from '../ops/dead-letter-query';
import { listDeadLetters } from '../ops/dead-letters';
import { replayJob } from '../ops/replay';
import { wakeBudgetWaits } from '../ops/spend-cap-raised';

export interface AdminServiceDeps {
  client: Client;
  config: Pick<Config, 'temporal'>;
}

/** What operators do over HTTP; the same functions back the `npm run replay` tool. */
export function createAdminService(deps: AdminServiceDeps) {
  const { client, config } = deps;
  return {
    deadLetters: (filter: DeadLetterFilter, limit: number) => listDeadLetters(client, filter, { limit }),
    replay: (jobId: string, request: { operator: string; reason: string; dryRun: boolean }) =>
      replayJob(client, jobId, { namespace: config.temporal.namespace, ...request }),
    spendCapRaised: (tenantId: string, operator: string) => wakeBudgetWaits(client, tenantId, operator),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
