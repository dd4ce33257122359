import { resolve } from 'node:path';
import { parseDurationMs } from '../duration';
import { Secret } from '../secret';
import { MIN_SECRET_LENGTH, type SecretStrengthOptions, weakSecretReason } from './secret-strength';
import type { Parsed, SettingType } from './setting';

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(message: string): Parsed<T> => ({ ok: false, problems: [{ path: '', message }] });

export function text(): SettingType<string> {
  return { description: 'string', parse: ok };
}

/** A path, resolved against the current directory when read so later `chdir`s do not move it. */
export function path(): SettingType<string> {
  return { description: 'path', parse: (raw) => (raw.trim() === '' ? bad('must not be empty') : ok(resolve(raw))) };
}

export function secret(): SettingType<Secret> {
  return { description: 'string', secret: true, parse: (raw) => ok(new Secret(raw)) };
}

/** A secret we generate and own (not a third party's credential): refused when weak (secret-strength.ts). */
export function strongSecret(options: SecretStrengthOptions = {}): SettingType<Secret> {
  return {
    description: `string of ≥ ${options.minLength ?? MIN_SECRET_LENGTH} random characters`,
    secret: true,
    parse(raw) {
      const weak = weakSecretReason(raw, options);
      return weak === undefined ? ok(new Secret(raw)) : bad(weak);
    },
  };
}

/** Inclusive bounds; either may be absent. */
export interface Bounds {
  min?: number;
  max?: number;
}

function rangeText({ min, max }: Bounds): string {
  if (min !== undefined && max !== undefined) return `${min}–${max}`;
  if (min !== undefined) return `≥ ${min}`;
  return max !== undefined ? `≤ ${max}` : '';
}

function inRange(value: number, { min, max }: Bounds): boolean {
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

function rangeProblem(kind: string, { min, max }: Bounds): string {
  if (min !== undefined && max !== undefined) return `must be ${kind} from ${min} to ${max}`;
  return `must be ${kind}${rangeText({ min, max }) === '' ? '' : ` ${rangeText({ min, max })}`}`;
}

export function number(bounds: Bounds = {}): SettingType<number> {
  return {
    description: `number ${rangeText(bounds)}`.trim(),
    parse(raw) {
      const value = Number(raw);
      return Number.isFinite(value) && inRange(value, bounds) ? ok(value) : bad(rangeProblem('a number', bounds));
    },
  };
}

export function int(bounds: Bounds = {}): SettingType<number> {
  return {
    description: `integer ${rangeText(bounds)}`.trim(),
    parse(raw) {
      const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
      return Number.isSafeInteger(value) && inRange(value, bounds)
        ? ok(value)
        : bad(rangeProblem('a whole number', bounds));
    },
  };
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export function bool(): SettingType<boolean> {
  return {
    description: 'boolean',
    parse(raw) {
      const value = raw.toLowerCase();
      if (TRUE.includes(value)) return ok(true);
      if (FALSE.includes(value)) return ok(false);
      return bad('must be true or false (also on/off, yes/no, 1/0)');
    },
  };
}

export function duration(): SettingType<number> {
  return {
    description: 'duration',
    parse(raw) {
      const ms = parseDurationMs(raw);
      return ms !== undefined && ms > 0 ? ok(ms) : bad('must be a duration such as 500ms, 30s, 15m, 48h or 7d');
    },
  };
}

/** An absolute URL, kept as written but without a trailing slash, so `${url}/path` never doubles it. */
export function url(): SettingType<string> {
  return {
    description: 'URL',
    parse(raw) {
      if (!URL.canParse(raw)) return bad('must be an absolute URL such as http://127.0.0.1:8080');
      return ok(raw.replace(/\/+$/, ''));
    },
  };
}

export function oneOf<const T extends string>(allowed: readonly T[]): SettingType<T> {
  return {
    description: `one of ${allowed.join(', ')}`,
    parse(raw) {
      return (allowed as readonly string[]).includes(raw) ? ok(raw as T) : bad(`must be one of ${allowed.join(', ')}`);
    },
  };
}

/** A comma-separated list of names (model ids, say), any names; empty means none. */
export function names(): SettingType<string[]> {
  return {
    description: 'comma-separated list of names, or empty',
    parse: (raw) => ok(raw.split(',').map((item) => item.trim()).filter((item) => item !== '')),
  };
}

/** A comma-separated list of allowed words, at least one. */
export function listOf<const T extends string>(allowed: readonly T[]): SettingType<T[]> {
  return {
    description: `comma-separated list of ${allowed.join(', ')}`,
    parse(raw) {
      const items = raw.split(',').map((item) => item.trim());
      const valid = items.every((item) => (allowed as readonly string[]).includes(item));
      return valid ? ok(items as T[]) : bad(`must be a comma-separated list of ${allowed.join(', ')}`);
    },
  };
}
