import path from 'node:path';
import { isLoopbackHost } from '../stack/ports';

/** Everything the ledger service can be configured with; read from the environment here and nowhere else. */
export interface LedgerOptions {
  /** LEDGER_HOST. Loopback only: the service has no authentication and exposes fault injection. */
  host: string;
  /** LEDGER_PORT. 0 picks a free port (tests). */
  port: number;
  /** LEDGER_DATA_DIR, resolved against the current directory. Holds the append-only journal. */
  dataDir: string;
}

export const DEFAULT_LEDGER_OPTIONS: LedgerOptions = {
  host: '127.0.0.1',
  port: 8789,
  dataDir: '.data/ledger',
};

/** A bad setting; the message names the variable and says what would be accepted. */
export class LedgerConfigError extends Error {
  override readonly name = 'LedgerConfigError';
}

type Env = Record<string, string | undefined>;

/** Explicit overrides win over the environment, which wins over the defaults; the result is validated. */
export function resolveLedgerOptions(overrides: Partial<LedgerOptions> = {}, env: Env = process.env): LedgerOptions {
  const host = overrides.host ?? nonEmpty(env.LEDGER_HOST) ?? DEFAULT_LEDGER_OPTIONS.host;
  const port = overrides.port ?? parsePort(nonEmpty(env.LEDGER_PORT)) ?? DEFAULT_LEDGER_OPTIONS.port;
  const dataDir = overrides.dataDir ?? nonEmpty(env.LEDGER_DATA_DIR) ?? DEFAULT_LEDGER_OPTIONS.dataDir;
  return { host: validateHost(host), port: validatePort(port), dataDir: validateDataDir(dataDir) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new LedgerConfigError(`LEDGER_PORT must be an integer from 0 to 65535, got "${raw}"`);
  return Number(raw);
}

function validatePort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new LedgerConfigError(`LEDGER_PORT must be an integer from 0 to 65535, got ${String(port)}`);
  }
  return port;
}

function validateHost(host: string): string {
  if (isLoopbackHost(host)) return host;
  throw new LedgerConfigError(
    `LEDGER_HOST must be a loopback address (127.x.x.x, ::1 or localhost), got "${host}": ` +
      'the ledger stand-in has no authentication and must not be reachable from other machines',
  );
}

function validateDataDir(dataDir: string): string {
  if (dataDir.trim() === '') throw new LedgerConfigError('LEDGER_DATA_DIR must not be empty');
  return path.resolve(dataDir);
}
