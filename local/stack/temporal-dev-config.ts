import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Config } from '../../lib/config';
import { parseDurationMs } from '../../lib/duration';
import { portOf } from './ports';

/** temporal-dev.yaml, validated. */
export interface TemporalDevConfig {
  namespace: string;
  ip: string;
  port: number;
  ui: { enabled: boolean; port: number };
  dbFile: string;
  /** SQLite pragmas of that file (`--sqlite-pragma`), e.g. the write-ahead log. */
  sqlitePragmas: Record<string, string>;
  retentionMs: number;
  logLevel: string;
  searchAttributes: Record<string, string>;
  dynamicConfig: Record<string, unknown>;
}

/** `npm start`'s dev-server ports: temporal-dev.yaml's, unless TEMPORAL_ADDRESS / TEMPORAL_WEB_UI_URL say otherwise. */
export function devServerPorts(
  temporal: Pick<Config['temporal'], 'address' | 'webUiUrl' | 'fromEnvironment'>,
  devConfig: Pick<TemporalDevConfig, 'port' | 'ui'>,
): { temporal: number; temporalUi?: number } {
  const port = temporal.fromEnvironment.address ? portOf(temporal.address) : devConfig.port;
  if (!devConfig.ui.enabled) return { temporal: port };
  return { temporal: port, temporalUi: temporal.fromEnvironment.webUiUrl ? portOf(temporal.webUiUrl) : devConfig.ui.port };
}

export const TEMPORAL_DEV_YAML = join(__dirname, '..', '..', 'temporal-dev.yaml');

export function loadTemporalDevConfig(path = TEMPORAL_DEV_YAML): TemporalDevConfig {
  const raw = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const fail = (what: string): never => {
    throw new Error(`${path}: ${what}`);
  };
  const str = (key: string): string => (typeof raw[key] === 'string' ? (raw[key] as string) : fail(`${key} must be a string`));
  const int = (value: unknown, key: string): number =>
    Number.isInteger(value) ? (value as number) : fail(`${key} must be a whole number`);
  const ui = (raw.ui ?? {}) as { enabled?: unknown; port?: unknown };
  const retentionMs = parseDurationMs(str('retention')) ?? fail('retention must be a duration such as 168h');
  const searchAttributes = (raw.searchAttributes ?? {}) as Record<string, string>;
  const sqlitePragmas = (raw.sqlitePragmas ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(sqlitePragmas)) {
    if (typeof value !== 'string' || !/^[a-z_]+$/.test(name)) fail(`sqlitePragmas.${name} must be a word naming a string value`);
  }
  const allowed = ['Keyword', 'Text', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList'];
  for (const [name, type] of Object.entries(searchAttributes)) {
    if (!allowed.includes(type)) fail(`searchAttributes.${name}: ${type} is not one of ${allowed.join(', ')}`);
  }
  return {
    namespace: str('namespace'),
    ip: str('ip'),
    port: int(raw.port, 'port'),
    ui: { enabled: ui.enabled !== false, port: int(ui.port ?? 8233, 'ui.port') },
    dbFile: str('dbFile'),
    sqlitePragmas: sqlitePragmas as Record<string, string>,
    retentionMs,
    logLevel: str('logLevel'),
    searchAttributes,
    dynamicConfig: (raw.dynamicConfig ?? {}) as Record<string, unknown>,
  };
}

export interface DevServerRun {
  port: number;
  uiPort?: number;
  dataDir: string;
  metricsPort?: number;
  /** The codec server the Web UI sends payloads to (`<API>/codec`). */
  codecEndpoint?: string;
}

/** The `temporal server start-dev` arguments for this config. */
export function devServerArgs(config: TemporalDevConfig, run: DevServerRun): string[] {
  const args = [
    'server',
    'start-dev',
    '--ip',
    config.ip,
    '--port',
    String(run.port),
    '--namespace',
    config.namespace,
    '--db-filename',
    join(run.dataDir, config.dbFile),
    '--log-level',
    config.logLevel,
    '--log-format',
    'json',
  ];
  if (config.ui.enabled && run.uiPort !== undefined) args.push('--ui-port', String(run.uiPort));
  else args.push('--headless');
  if (config.ui.enabled && run.uiPort !== undefined && run.codecEndpoint !== undefined) {
    args.push('--ui-codec-endpoint', run.codecEndpoint);
  }
  if (run.metricsPort !== undefined) args.push('--metrics-port', String(run.metricsPort));
  for (const [name, value] of Object.entries(config.sqlitePragmas)) args.push('--sqlite-pragma', `${name}=${value}`);
  for (const [name, type] of Object.entries(config.searchAttributes)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(config.dynamicConfig)) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  return args;
}
