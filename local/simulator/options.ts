import { isLoopbackHost } from '../stack/ports';

/**
 * The simulator's run-level settings: the one place that reads the environment and the command line.
 * Each setting has an env name, a `--flag=value` override and a validator, so a typo fails at start
 * with a message naming the variable instead of silently running with a default.
 */

export interface SimulatorOptions {
  host: string;
  port: number;
  requestsPerMinute: number;
  inputTokensPerMinute: number;
  outputTokensPerMinute: number;
  latencyBaseMs: number;
  latencyPerOutputTokenMs: number;
  /** Probabilities (0..1) that a request gets this fault when no header or rule chose one. */
  rate429: number;
  rate529: number;
  rate500: number;
  rateRefusal: number;
  rateMalformed: number;
  /** With a seed, random faults and generated ids repeat exactly from run to run. */
  seed: number | null;
}

/** Settings `PUT /_sim/config` may change; the address is fixed once the server listens. */
export type RuntimeSettings = Omit<SimulatorOptions, 'host' | 'port'>;

export const DEFAULT_OPTIONS: SimulatorOptions = {
  host: '127.0.0.1',
  port: 8787,
  requestsPerMinute: 4000,
  inputTokensPerMinute: 2_000_000,
  outputTokensPerMinute: 400_000,
  latencyBaseMs: 40,
  latencyPerOutputTokenMs: 0.2,
  rate429: 0,
  rate529: 0,
  rate500: 0,
  rateRefusal: 0,
  rateMalformed: 0,
  seed: null,
};

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

type Parser = (raw: string, source: string) => string | number | null;

interface SettingSpec {
  key: keyof SimulatorOptions;
  env: string;
  parse: Parser;
}

const parseHost: Parser = (raw, source) => {
  const host = raw.trim();
  if (host === '') throw new OptionsError(`${source} must not be empty`);
  // No real authentication and a control surface that rewrites faults and limits: never reachable from outside.
  if (!isLoopbackHost(host)) {
    throw new OptionsError(`${source} must be a loopback address (127.x.x.x, ::1 or localhost), got "${raw}"`);
  }
  return host;
};

function parseNumber(raw: string, source: string, what: string, ok: (n: number) => boolean): number {
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || !ok(value)) throw new OptionsError(`${source} must be ${what}, got "${raw}"`);
  return value;
}

const parsePort: Parser = (raw, source) =>
  parseNumber(raw, source, 'a port number (0-65535)', (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
const parsePositiveInteger: Parser = (raw, source) =>
  parseNumber(raw, source, 'a positive integer', (n) => Number.isInteger(n) && n > 0);
const parseNonNegative: Parser = (raw, source) => parseNumber(raw, source, 'a number >= 0', (n) => n >= 0);
const parseProbability: Parser = (raw, source) =>
  parseNumber(raw, source, 'a probability between 0 and 1', (n) => n >= 0 && n <= 1);
const parseSeed: Parser = (raw, source) =>
  raw.trim() === '' ? null : parseNumber(raw, source, 'an integer', (n) => Number.isSafeInteger(n));

const SETTINGS: readonly SettingSpec[] = [
  { key: 'host', env: 'SIM_HOST', parse: parseHost },
  { key: 'port', env: 'SIM_PORT', parse: parsePort },
  { key: 'requestsPerMinute', env: 'SIM_RPM', parse: parsePositiveInteger },
  { key: 'inputTokensPerMinute', env: 'SIM_ITPM', parse: parsePositiveInteger },
  { key: 'outputTokensPerMinute', env: 'SIM_OTPM', parse: parsePositiveInteger },
  { key: 'latencyBaseMs', env: 'SIM_LATENCY_BASE_MS', parse: parseNonNegative },
  { key: 'latencyPerOutputTokenMs', env: 'SIM_LATENCY_PER_OUTPUT_TOKEN_MS', parse: parseNonNegative },
  { key: 'rate429', env: 'SIM_RATE_429', parse: parseProbability },
  { key: 'rate529', env: 'SIM_RATE_529', parse: parseProbability },
  { key: 'rate500', env: 'SIM_RATE_500', parse: parseProbability },
  { key: 'rateRefusal', env: 'SIM_RATE_REFUSAL', parse: parseProbability },
  { key: 'rateMalformed', env: 'SIM_RATE_MALFORMED', parse: parseProbability },
  { key: 'seed', env: 'SIM_SEED', parse: parseSeed },
];

/** `SIM_LATENCY_BASE_MS` ↔ `--latency-base-ms`: one naming rule, so the two never drift apart. */
function flagName(spec: SettingSpec): string {
  return spec.env.replace(/^SIM_/, '').toLowerCase().replace(/_/g, '-');
}

function assign(options: SimulatorOptions, key: keyof SimulatorOptions, value: string | number | null): void {
  (options as unknown as Record<string, unknown>)[key] = value;
}

/** Settings from env, then `--key=value` flags (flags win), validated as a whole. */
export function loadOptions(env: NodeJS.ProcessEnv, argv: readonly string[]): SimulatorOptions {
  const options: SimulatorOptions = { ...DEFAULT_OPTIONS };
  for (const spec of SETTINGS) {
    const raw = env[spec.env];
    if (raw !== undefined) assign(options, spec.key, spec.parse(raw, spec.env));
  }
  for (const arg of argv) {
    const match = /^--([a-z0-9-]+)=(.*)$/s.exec(arg);
    const spec = match ? SETTINGS.find((candidate) => flagName(candidate) === match[1]) : undefined;
    if (!match || !spec) {
      const known = SETTINGS.map((candidate) => `--${flagName(candidate)}`).join(', ');
      throw new OptionsError(`unknown argument "${arg}"; expected --key=value with one of: ${known}`);
    }
    assign(options, spec.key, spec.parse(match[2] ?? '', `--${match[1]}`));
  }
  checkFaultRates(options);
  return options;
}

/** One random draw decides a request's fault, so the rates share the unit interval. */
export function checkFaultRates(settings: RuntimeSettings): void {
  const total = settings.rate429 + settings.rate529 + settings.rate500 + settings.rateRefusal + settings.rateMalformed;
  if (total > 1 + 1e-9) throw new OptionsError(`fault rates add up to ${total}, more than 1`);
}

const RUNTIME_KEYS = SETTINGS.map((spec) => spec.key).filter(
  (key): key is keyof RuntimeSettings => key !== 'host' && key !== 'port',
);

/**
 * Validates a `PUT /_sim/config` body: known runtime keys only, JSON values of the right kind.
 * Values go through the same parsers as the environment, so both paths accept the same things.
 */
export function parseSettingsPatch(body: unknown): Partial<RuntimeSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OptionsError('config must be a JSON object');
  }
  const patch: Partial<RuntimeSettings> = {};
  for (const [key, value] of Object.entries(body)) {
    const spec = SETTINGS.find((candidate) => candidate.key === key);
    if (!spec || !RUNTIME_KEYS.includes(key as keyof RuntimeSettings)) {
      throw new OptionsError(`"${key}" cannot be changed at runtime; known keys: ${RUNTIME_KEYS.join(', ')}`);
    }
    if (key === 'seed' && value === null) {
      patch.seed = null;
      continue;
    }
    if (typeof value !== 'number') throw new OptionsError(`${key} must be a number, got ${JSON.stringify(value)}`);
    (patch as Record<string, unknown>)[key] = spec.parse(String(value), key);
  }
  return patch;
}

export function runtimeSettingsOf(options: SimulatorOptions): RuntimeSettings {
  const { host: _host, port: _port, ...settings } = options;
  return settings;
}

/** The simulator's log level (LOG_LEVEL, as for every Slowlane process); not a simulator setting. */
export function logLevelFrom(env: NodeJS.ProcessEnv): string {
  return env.LOG_LEVEL ?? 'info';
}
