import { parseArgs } from 'node:util';
import { parseDurationMs } from '../lib/duration';

/** A flag a bench cannot use (unknown, without its value, or a bad value): its message ends with the usage text. */
export class BenchFlagError extends Error {
  override readonly name = 'BenchFlagError';
}

/** The flags of one bench, read once: typed readers that stop the bench with its usage text on a bad value. */
export interface BenchFlags<Name extends string, Switch extends string = never> {
  /** Whether a switch (a flag without a value, such as `--timeline`) was given. */
  on(name: Switch): boolean;
  /** The raw value, or undefined when absent. */
  text(name: Name): string | undefined;
  /** A whole number ≥ `min` (0 unless given), or the fallback when absent. */
  count(name: Name, fallback: number, min?: number): number;
  /** A duration such as `90s` or `1500ms`, in milliseconds, or the fallback when absent. */
  duration(name: Name, fallback: number): number;
  /** One of `allowed`, or the fallback when absent. */
  choice<Item extends string>(name: Name, allowed: readonly Item[], fallback: Item): Item;
  /** A comma-separated subset of `allowed`, or the fallback when absent. */
  subset<Item extends string>(name: Name, allowed: readonly Item[], fallback: readonly Item[]): Item[];
  /** Stops the bench with this message and the usage text: for a check a reader above does not make. */
  refuse(message: string): never;
}

/**
 * Reads `--name value` flags, and the `switches` a bench has (flags without a value); an unknown flag is refused.
 * `--help` prints the usage and ends the process, so a bench's settings can be read before anything starts.
 */
export function readBenchFlags<Name extends string, Switch extends string = never>(
  argv: string[],
  names: readonly Name[],
  usage: string,
  switches: readonly Switch[] = [],
): BenchFlags<Name, Switch> {
  const refuse = (message: string): never => {
    throw new BenchFlagError(`${message}\n${usage}`);
  };
  const known = new Set<string>([...names, ...switches, 'help']);
  for (const arg of argv) {
    const name = arg.startsWith('--') ? (arg.slice(2).split('=')[0] ?? '') : undefined;
    if (name !== undefined && name !== '' && !known.has(name)) refuse(`--${name} is not a flag of this bench`);
  }
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const name of names) options[name] = { type: 'string' };
  for (const name of switches) options[name] = { type: 'boolean' };
  let values: Record<string, string | boolean | undefined> = {};
  try {
    ({ values } = parseArgs({ args: argv, options }));
  } catch (error) {
    refuse((error as Error).message);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const text = (name: Name) => values[name] as string | undefined;
  return {
    on: (name) => values[name] === true,
    text,
    refuse,
    count(name, fallback, min = 0) {
      const value = text(name);
      if (value === undefined) return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min)
        refuse(`--${name} must be a whole number${min > 0 ? ` ≥ ${min}` : ''}`);
      return parsed;
    },
    duration(name, fallback) {
      const value = text(name);
      if (value === undefined) return fallback;
      const parsed = parseDurationMs(value);
      if (parsed === undefined) return refuse(`--${name} must be a duration such as 90s`);
      return parsed;
    },
    choice<Item extends string>(name: Name, allowed: readonly Item[], fallback: Item): Item {
      const value = text(name);
      if (value === undefined) return fallback;
      if (!(allowed as readonly string[]).includes(value)) refuse(`--${name} takes one of ${allowed.join(', ')}`);
      return value as Item;
    },
    subset<Item extends string>(name: Name, allowed: readonly Item[], fallback: readonly Item[]): Item[] {
      const value = text(name);
      if (value === undefined) return [...fallback];
      const items = value.split(',');
      const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
      if (unknown.length > 0 || items.length === 0) refuse(`--${name} takes ${allowed.join(' and/or ')}`);
      return items as Item[];
    },
  };
}
