import { ConfigError } from './config-error';
import type { AnySetting, SettingTable } from './setting';

/** A value for one setting and how an error names where it came from (`API_PORT`, `--port`). */
export interface RawValue {
  raw: string;
  label: string;
}

/** Somewhere values come from: the environment, command-line flags, a caller's explicit options. */
export type SettingSource = (key: string, setting: AnySetting) => RawValue | undefined;

export type Env = Readonly<Record<string, string | undefined>>;

/** Blank counts as unset, as a shell's `FOO=` would mean. */
function present(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function fromEnv(env: Env): SettingSource {
  return (_key, setting) => {
    const raw = present(env[setting.env]);
    return raw === undefined ? undefined : { raw, label: setting.env };
  };
}

/** Values a program passes in code (tests, an embedding process), keyed like the table; named `options.<key>`. */
export function fromOptions(options: Readonly<Record<string, unknown>>): SettingSource {
  return (key) => {
    const value = options[key];
    return value === undefined ? undefined : { raw: String(value), label: `options.${key}` };
  };
}

/**
 * `--key=value` flags for the settings of `table`; the flag is the env name without `envPrefix`, lower case,
 * `_` → `-` (`SIM_LATENCY_BASE_MS` ↔ `--latency-base-ms`), one naming rule so the two never drift apart.
 */
export function fromFlags(argv: readonly string[], table: SettingTable, envPrefix: string): SettingSource {
  const flagOf = (setting: AnySetting): string =>
    `--${setting.env.replace(envPrefix, '').toLowerCase().replace(/_/g, '-')}`;
  const byFlag = new Map(Object.values(table).map((setting) => [flagOf(setting), setting]));
  const given = new Map<AnySetting, RawValue>();
  for (const arg of argv) {
    const match = /^(--[a-z0-9-]+)=(.*)$/s.exec(arg);
    const setting = match ? byFlag.get(match[1] as string) : undefined;
    if (!match || !setting) {
      throw new ConfigError(
        `unknown argument "${arg}"; expected --key=value with one of: ${[...byFlag.keys()].join(', ')}`,
      );
    }
    const raw = present(match[2]);
    if (raw !== undefined) given.set(setting, { raw, label: match[1] as string });
  }
  return (_key, setting) => given.get(setting);
}
