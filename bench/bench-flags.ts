import { parseArgs } from 'node:util';
import { parseDurationMs } from '../lib/duration';

/** The flags of one bench, read once: typed readers that stop the bench with its usage text on a bad value. */
export interface BenchFlags<Name extends string> {
  /** The raw value, or undefined when absent. */
  text(name: Name): string | undefined;
  /** A whole number ≥ 0, or the fallback when absent. */
  count(name: Name, fallback: number): number;
  /** A duration such as `90s` or `1500ms`, in milliseconds, or the fallback when absent. */
  duration(name: Name, fallback: number): number;
  /** A comma-separated subset of `allowed`, or the fallback when absent. */
  subset<Item extends string>(name: Name, allowed: readonly Item[], fallback: readonly Item[]): Item[];
}

/**
 * Reads `--name value` flags (every one takes a value; an unknown flag is refused). `--help` prints the usage and
 * ends the process, so a bench's settings can be read before anything starts.
 */
export function readBenchFlags<Name extends string>(
  argv: string[],
  names: readonly Name[],
  usage: string,
): BenchFlags<Name> {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const name of names) options[name] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${usage}`, { cause: error });
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const text = (name: Name) => values[name] as string | undefined;
  return {
    text,
    count(name, fallback) {
      const value = text(name);
      if (value === undefined) return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a whole number\n${usage}`);
      return parsed;
    },
    duration(name, fallback) {
      const value = text(name);
      if (value === undefined) return fallback;
      const parsed = parseDurationMs(value);
      if (parsed === undefined) throw new Error(`--${name} must be a duration such as 90s\n${usage}`);
      return parsed;
    },
    subset<Item extends string>(name: Name, allowed: readonly Item[], fallback: readonly Item[]): Item[] {
      const value = text(name);
      if (value === undefined) return [...fallback];
      const items = value.split(',');
      const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
      if (unknown.length > 0 || items.length === 0)
        throw new Error(`--${name} takes ${allowed.join(' and/or ')}\n${usage}`);
      return items as Item[];
    },
  };
}
