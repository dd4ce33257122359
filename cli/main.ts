import { loadCliConfig } from '../lib/config';
import { type Command, parseCommand, SCHEDULE_USAGE, USAGE, UsageError } from './arguments';
import { createTerminal } from './progress';
import { scheduleCommand } from './schedule-command';
import { ApiCallError, createSlowlaneClient } from './slowlane-client';
import { statusCommand } from './status-command';
import { submitCommand } from './submit-command';

/** `npx slowlane …` — the client CLI (docs/clients.md). */
async function main(argv: string[]): Promise<number> {
  const terminal = createTerminal();
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    // A schedule slip is answered with the schedule usage, the rest with the general one.
    const usage = argv.includes('schedule') ? SCHEDULE_USAGE : USAGE;
    terminal.note(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  if (command.name === 'help') {
    terminal.out(command.topic === 'schedule' ? SCHEDULE_USAGE : USAGE);
    return 0;
  }
  const settings = loadCliConfig();
  const apiKey = command.key ?? settings.apiKey?.reveal();
  if (!apiKey) {
    terminal.note('No API key: pass --key or set SLOWLANE_API_KEY.');
    return 2;
  }
  const client = createSlowlaneClient({ apiUrl: command.api ?? settings.apiUrl, apiKey });
  try {
    if (command.name === 'status') return await statusCommand(client, command, terminal);
    if (command.name === 'schedule') return await scheduleCommand(client, command, terminal);
    return await submitCommand(client, command, terminal);
  } catch (error) {
    if (error instanceof UsageError) {
      terminal.note(error.message);
      return 2;
    }
    terminal.note(error instanceof ApiCallError ? apiErrorLine(error) : String(error));
    return 1;
  }
}

/** "invalid_request: … (field: cron)": the API's code and words, and the field it named. */
function apiErrorLine(error: ApiCallError): string {
  const field = typeof error.details?.field === 'string' ? ` (field: ${error.details.field})` : '';
  return `${error.code}: ${error.message}${field}`;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
