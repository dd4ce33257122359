import type { Client } from '@temporalio/client';
import type { Config } from '../lib/config';
import { abandonDeadLetter } from '../ops/abandon';
import type { DeadLetterFilter } from '../ops/dead-letter-query';
import { listDeadLetters } from '../ops/dead-letters';
import { replayJob } from '../ops/replay';
import { wakeBudgetWaits } from '../ops/spend-cap-raised';
import { listGivenUpWebhooks, redeliverWebhook } from '../ops/webhook-redelivery';

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
    abandon: (jobId: string, by: { operator: string; reason?: string }) => abandonDeadLetter(client, jobId, by),
    spendCapRaised: (tenantId: string, operator: string) => wakeBudgetWaits(client, tenantId, operator),
    givenUpWebhooks: (limit: number) => listGivenUpWebhooks(client, { limit }),
    redeliverWebhook: (deliveryId: string, operator: string) =>
      redeliverWebhook(client, deliveryId, { namespace: config.temporal.namespace, operator, reason: 'redelivery of a given-up webhook' }),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
