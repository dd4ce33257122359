import { parseArgs } from 'node:util';
import type { Client } from '@temporalio/client';
import { loadOperatorConfig } from '../lib/config';
import { parseDurationMs } from '../lib/duration';
import { namespaceRetentionMs } from '../lib/namespace-retention';
import { connectClient } from '../lib/temporal-connection';
import { PATCHES } from '../workflows/patches';
import { formatPatchReport, reportPatches, type Visibility } from './patch-report';

export const PATCHES_USAGE = `Which registered patches (workflows/patches.ts) may be retired: asks Temporal's visibility, for each, which
executions could still take its old branch.

  npm run ops -- patches [options]

  --deploy-lag <duration>   how long after its commit a build reached the workers (default 0d); runs started
                            that much after the shipped day count as old code too`;

function visibilityOf(client: Client): Visibility {
  return {
    count: async (query) => (await client.workflow.count(query)).count,
    workflowIds: async (query, limit) => {
      const ids: string[] = [];
      for await (const execution of client.workflow.list({ query, pageSize: limit })) {
        ids.push(execution.workflowId);
        if (ids.length >= limit) break;
      }
      return ids;
    },
  };
}

export async function patchesCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'deploy-lag': { type: 'string', default: '0d' }, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.log(PATCHES_USAGE);
    return 0;
  }
  const deployLagMs = parseDurationMs(values['deploy-lag']);
  if (deployLagMs === undefined) throw new Error(`--deploy-lag ${values['deploy-lag']}: give a duration, e.g. 3d`);
  const config = loadOperatorConfig();
  const client = await connectClient(config.temporal);
  try {
    const window = { now: new Date(), retentionMs: await namespaceRetentionMs(client, config.temporal.namespace), deployLagMs };
    const rows = await reportPatches(visibilityOf(client), Object.values(PATCHES), window);
    console.log(formatPatchReport(rows, window));
    // A report, not a check: "keep" is an answer, not a failure.
    return 0;
  } finally {
    await client.connection.close();
  }
}
