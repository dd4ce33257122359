import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config';
import { connectClient } from '../lib/temporal-connection';
import { listGivenUpWebhooks, redeliverWebhook } from './webhook-redelivery';
import { runCommand } from './run-command';

const USAGE = `Webhook deliveries that were given up (410 Gone, a refused URL, a day of retries), and their redelivery.

  npm run webhooks -- given-up [--limit N] [--json]
  npm run webhooks -- redeliver <deliveryId…> [--operator NAME]

  given-up            list them (delivery id, job, event id, when it was given up)
  redeliver           send each event again, same webhook-id, with a fresh day of retries
  --limit N           list at most N (default 100)
  --operator NAME     who asked, recorded with the reset (default: your user name)

The same as GET /admin/webhooks/given-up and POST /admin/webhooks/<deliveryId>/redeliver.`;

function parseLimit(text: string): number {
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit <= 0 || limit > 1000) throw new Error(`--limit ${text}: give a whole number from 1 to 1000`);
  return limit;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      limit: { type: 'string', default: '100' },
      json: { type: 'boolean', default: false },
      operator: { type: 'string', default: userInfo().username },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, ...deliveryIds] = positionals;
  const usable = (command === 'given-up' && deliveryIds.length === 0) || (command === 'redeliver' && deliveryIds.length > 0);
  if (values.help || !usable) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const limit = parseLimit(values.limit);
  const config = loadConfig();
  const client = await connectClient(config.temporal);
  try {
    if (command === 'given-up') {
      const list = await listGivenUpWebhooks(client, { limit });
      if (values.json) console.log(JSON.stringify(list, null, 2));
      else for (const d of list.deliveries) console.log(`${d.closedAt ?? '-'}  ${d.status.padEnd(9)} ${d.deliveryId}`);
      if (!values.json && list.truncated) console.log(`… more than ${limit}; raise --limit`);
      return 0;
    }
    let refused = 0;
    for (const deliveryId of deliveryIds) {
      const outcome = await redeliverWebhook(client, deliveryId, {
        namespace: config.temporal.namespace,
        operator: values.operator,
        reason: 'redelivery of a given-up webhook',
      });
      if (outcome.action !== 'redelivered') refused += 1;
      console.log(`${outcome.action.padEnd(12)} ${deliveryId}  ${outcome.detail}`);
    }
    return refused > 0 ? 1 : 0;
  } finally {
    await client.connection.close();
  }
}

runCommand(main);
