import { parseArgs } from 'node:util';
import { JOB_TYPES } from '../common/job-types/registry';
import { PRIORITIES, type Priority } from '../common/task-queues';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage:
  slowlane submit <file|folder>… [--type TYPE] [--priority interactive|bulk] [--wait] [--timeout 1h]
                  [--callback-url URL] [--json] [--api URL] [--key KEY]
  slowlane status <jobId> [--json] [--api URL] [--key KEY]

submit   Uploads each PDF or .txt (folders: every .pdf/.txt inside, recursively). The Idempotency-Key comes
         from the file's content, so running the same command again finds the same jobs instead of making new
         ones: a backfill can be re-run safely after an interruption.
         --type names the job type (${JOB_TYPES.join(', ')}; default invoice). A type that takes JSON reads
         one JSON input per file argument, or from stdin when the argument is -.
         --wait follows the jobs until each is posted, rejected, failed, expired or waiting for a reviewer.
status   Shows one job.

The API and key default to SLOWLANE_API_URL and SLOWLANE_API_KEY (locally: http://127.0.0.1:3000 and the key npm start prints).
Exit codes: 0 all good, 1 a submission or a job failed, 2 usage error, 3 --wait timed out.`;

export type Command =
  | { name: 'help' }
  | {
      name: 'submit';
      paths: string[];
      type: string;
      priority: Priority;
      wait: boolean;
      timeoutMs: number;
      callbackUrl?: string;
      json: boolean;
      api?: string;
      key?: string;
    }
  | { name: 'status'; jobId: string; json: boolean; api?: string; key?: string };

const DURATION = /^(\d+)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

function durationMs(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match?.[1]) throw new UsageError(`--timeout ${text}: use a number with s, m or h, e.g. 90s, 30m, 2h`);
  return Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1_000);
}

export function parseCommand(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      priority: { type: 'string' },
      type: { type: 'string', default: 'invoice' },
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '1h' },
      'callback-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      api: { type: 'string' },
      key: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [name, ...rest] = positionals;
  const connection = { ...(values.api ? { api: values.api } : {}), ...(values.key ? { key: values.key } : {}) };
  if (values.help || name === undefined || name === 'help') return { name: 'help' };
  if (name === 'submit') {
    if (rest.length === 0) throw new UsageError('submit needs at least one file or folder');
    const priority = (values.priority ?? 'interactive') as Priority;
    if (!PRIORITIES.includes(priority)) throw new UsageError(`--priority must be one of ${PRIORITIES.join(', ')}`);
    if (!(JOB_TYPES as readonly string[]).includes(values.type)) throw new UsageError(`--type must be one of ${JOB_TYPES.join(', ')}`);
    return {
      name: 'submit',
      paths: rest,
      type: values.type,
      priority,
      wait: values.wait,
      timeoutMs: durationMs(values.timeout),
      ...(values['callback-url'] ? { callbackUrl: values['callback-url'] } : {}),
      json: values.json,
      ...connection,
    };
  }
  if (name === 'status') {
    if (rest.length !== 1 || !rest[0]) throw new UsageError('status needs exactly one job id');
    return { name: 'status', jobId: rest[0], json: values.json, ...connection };
  }
  throw new UsageError(`unknown command "${name}"`);
}
