import { PATCHES_USAGE, patchesCommand } from './patches-command';
import { runCommand } from './run-command';

/** `npm run ops -- <command>`: the operator's reports, each reading only the settings it uses. */
const COMMANDS: Record<string, { run: (args: string[]) => Promise<number>; usage: string }> = {
  patches: { run: patchesCommand, usage: PATCHES_USAGE },
};

const USAGE = `npm run ops -- <command> [options]

${Object.entries(COMMANDS)
  .map(([name, { usage }]) => `${name}: ${usage}`)
  .join('\n\n')}`;

async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2);
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    console.log(USAGE);
    return name === undefined || name === '--help' ? 0 : 2;
  }
  return command.run(args);
}

runCommand(main);
