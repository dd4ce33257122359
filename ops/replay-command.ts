import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { loadOperatorConfig } from '../lib/config';
import { connectClient } from '../lib/temporal-connection';
import { jobsMatching, type ReplayOutcome, replayJobs } from './replay';
import { runCommand } from './run-command';

const USAGE = `Replays jobs after a fix: parked dead letters get \`retry\`, failed jobs are reset to their failed step.

  npm run replay -- <jobId…> [options]
  npm run replay -- --query "<visibility query>" [options]

  --dry-run            say what would be done, change nothing
  --rate N/s           at most N jobs per second (default 5/s)
  --limit N            stop after N jobs (default 1000)
  --reason TEXT        recorded with the retry or reset (default "replay after a fix")
  --operator NAME      who asked (default: your user name)

Example: npm run replay -- --query "JobStatus = 'dead_letter' AND ErrorType = 'ModelUnavailableError'" --dry-run`;

function parseRate(text: string): number {
  const rate = Number(text.replace(/\/s$/, ''));
  if (!Number.isFinite(rate) || rate <= 0) throw new Error(`--rate ${text}: give jobs per second, e.g. 5/s`);
  return rate;
}

function parseLimit(text: string): number {
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit <= 0) throw new Error(`--limit ${text}: give a whole number of jobs, e.g. 100`);
  return limit;
}

function line(outcome: ReplayOutcome): string {
  return `${outcome.action.padEnd(12)} ${outcome.jobId}  ${outcome.step ?? '-'}  ${outcome.detail}`;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      query: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      rate: { type: 'string', default: '5/s' },
      limit: { type: 'string', default: '1000' },
      reason: { type: 'string', default: 'replay after a fix' },
      operator: { type: 'string', default: userInfo().username },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || (positionals.length === 0 && !values.query) || (positionals.length > 0 && values.query)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  // Checked before connecting: a mistyped limit must not turn into "every matching job".
  const ratePerSecond = parseRate(values.rate);
  const limit = parseLimit(values.limit);
  const config = loadOperatorConfig();
  const client = await connectClient(config.temporal);
  try {
    const dryRun = values['dry-run'];
    const { summary } = await replayJobs(client, values.query ? jobsMatching(client, values.query) : positionals, {
      namespace: config.temporal.namespace,
      operator: values.operator,
      reason: values.reason,
      dryRun,
      ratePerSecond,
      limit,
      onOutcome: (outcome) => console.log(line(outcome)),
    });
    const counts = Object.entries(summary).filter(([, count]) => count > 0);
    console.log(`\n${dryRun ? 'dry run — nothing changed. ' : ''}summary: ${counts.map(([action, count]) => `${count} ${action}`).join(', ') || 'no jobs matched'}`);
    return summary.refused + summary.not_found + summary.failed > 0 ? 1 : 0;
  } finally {
    await client.connection.close();
  }
}

runCommand(main);
