import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureGoTool, findOnPath, type GoTool, TEMPORAL_CLI } from './tools';

const execFileAsync = promisify(execFile);

/** The server version the pinned Temporal CLI embeds (its go.mod requires go.temporal.io/server at this version). */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const SERVER_MODULE = 'go.temporal.io/server';

/** `temporal-server`: frontend, history, matching and the internal worker, one service per process if asked. */
export const TEMPORAL_SERVER: GoTool = {
  name: 'server',
  module: `${SERVER_MODULE}/cmd/server`,
  version: TEMPORAL_SERVER_VERSION,
  usePath: false,
  dir: 'temporal-server',
};

/** `temporal-sql-tool`: creates the databases and applies the versioned schemas shipped in the server module. */
export const TEMPORAL_SQL_TOOL: GoTool = {
  name: 'sql',
  module: `${SERVER_MODULE}/cmd/tools/sql`,
  version: TEMPORAL_SERVER_VERSION,
  usePath: false,
  dir: 'temporal-server',
};

export interface TemporalServerTools {
  server: string;
  sqlTool: string;
  /** schema/postgresql/v12 of the server module: temporal/ and visibility/, each with versioned/ updates. */
  postgresSchemaDir: string;
}

/**
 * The server and its SQL tool built from the server module at the CLI's embedded version (minutes the first time,
 * then cached like the CLI), and the schema folder from the Go module cache. A CLI pin that moved without the
 * server pin fails here rather than testing a server the dev server does not run.
 */
export async function ensureTemporalServerTools(
  cacheDir: string,
  pathEnv: string,
  report: (line: string) => void,
): Promise<TemporalServerTools> {
  const go = findOnPath('go', pathEnv);
  if (go === undefined) throw new Error(`the Temporal cluster needs Go on PATH to build ${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`);
  const cli = await ensureGoTool(TEMPORAL_CLI, cacheDir, pathEnv, report);
  const embedded = embeddedModuleVersion((await execFileAsync(go, ['version', '-m', cli])).stdout, SERVER_MODULE);
  if (embedded !== TEMPORAL_SERVER_VERSION) {
    throw new Error(`the Temporal CLI ${TEMPORAL_CLI.version} embeds server ${embedded}, but TEMPORAL_SERVER_VERSION is ${TEMPORAL_SERVER_VERSION}`);
  }
  // One after the other: the second build reuses the first one's compiled packages.
  const server = await ensureGoTool(TEMPORAL_SERVER, cacheDir, pathEnv, report);
  const sqlTool = await ensureGoTool(TEMPORAL_SQL_TOOL, cacheDir, pathEnv, report);
  const { stdout } = await execFileAsync(go, ['mod', 'download', '-json', `${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`]);
  const moduleDir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!moduleDir) throw new Error(`go mod download did not say where ${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION} is`);
  return { server, sqlTool, postgresSchemaDir: join(moduleDir, 'schema', 'postgresql', 'v12') };
}

/** The version of `module` among a binary's dependencies, from `go version -m` output. */
export function embeddedModuleVersion(goVersionOutput: string, module: string): string | undefined {
  const escaped = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\s*dep\\s+${escaped}\\s+(\\S+)`, 'm').exec(goVersionOutput)?.[1];
}
