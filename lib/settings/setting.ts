/**
 * A setting is defined once, as an entry in a table: its env name, its type, its defaults and a doc line. The
 * reader (read-settings.ts), the startup validation and the generated docs/configuration.md all come from it.
 */

export type Deployment = 'local' | 'production';

/** Where a value went wrong: a path inside a JSON value (`[0].reviewerToken`, empty for the whole value) and why. */
export interface Problem {
  path: string;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

/** How a raw text value becomes a typed one. */
export interface SettingType<T> {
  /** The docs' "type" column: `integer 0–65535`, `duration`, `one of local, production`. */
  readonly description: string;
  /** Never echoed in errors, and marked "secret" in the docs. */
  readonly secret?: boolean;
  parse(raw: string): Parsed<T>;
}

export interface SettingEntry<T> {
  readonly env: string;
  readonly type: SettingType<T>;
  /** One line for docs/configuration.md: what it does, not how it is parsed. */
  readonly doc: string;
  /**
   * Written as the environment would write it (`48h`, `true`, `{}`), so the docs show exactly what to type and
   * the default goes through the same parser as a set value.
   */
  readonly default?: string;
  /** Replaces `default` in the local stack (SLOWLANE_ENV=local): demo credentials, loopback endpoints. */
  readonly localDefault?: string;
  /** For a default the code derives from other settings or the machine (`http://127.0.0.1:<API_PORT>`). */
  readonly defaultDoc?: string;
  /**
   * Production refuses to start without it, and never falls back to the local stack's default; `always`: no
   * process starts without it, in the local stack neither (secrets, which the stack generates itself).
   */
  readonly required?: 'production' | 'always';
  /** A test hook (a kill point): production refuses to start with it set, so no deployment can carry it by mistake. */
  readonly testOnly?: true;
}

/** A table entry; `V` is what reading it gives: `T` when a value always exists, `T | undefined` otherwise. */
export interface Setting<T, V = T | undefined> extends SettingEntry<T> {
  /** Type-level only: carries `V` so a table's values can be typed from the table. */
  readonly valueType?: V;
}

export type AnySetting = Setting<unknown, unknown>;

/** A table of settings keyed by the name the code uses for the value. */
export type SettingTable = Readonly<Record<string, AnySetting>>;

export type ValueOf<S> = S extends Setting<unknown, infer V> ? V : never;

export type SettingValues<Table extends SettingTable> = { -readonly [K in keyof Table]: ValueOf<Table[K]> };

/** A table under a heading of the docs. */
export interface SettingsArea<Table extends SettingTable = SettingTable> {
  readonly title: string;
  readonly settings: Table;
}

/** Defines an entry; the overloads give a setting with a default (everywhere) a value type without `undefined`. */
export function setting<T>(entry: SettingEntry<T> & { default: string }): Setting<T, T>;
export function setting<T>(entry: SettingEntry<T> & { localDefault: string; required: 'production' }): Setting<T, T>;
export function setting<T>(entry: SettingEntry<T> & { required: 'always' }): Setting<T, T>;
export function setting<T>(entry: SettingEntry<T>): Setting<T, T | undefined>;
export function setting<T>(entry: SettingEntry<T>): Setting<T> {
  return entry;
}
