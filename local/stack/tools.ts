import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Tools the local stack runs, built from their Go modules at pinned versions into a cache outside the repo, so
 * a second clone reuses them. Nothing is downloaded prebuilt: only the Go module proxy is reachable here.
 */
export interface GoTool {
  name: string;
  module: string;
  version: string;
  /** When a binary of this name built from the same version is on PATH, it is used instead of building one. */
  usePath: boolean;
  /** A folder of its own under bin/, for binaries whose name (the package's last element, e.g. `server`) says little. */
  dir?: string;
}

export const TEMPORAL_CLI: GoTool = {
  name: 'temporal',
  module: 'github.com/temporalio/cli/cmd/temporal',
  // The last release whose go.mod has no replace directive (`go install pkg@version` refuses those).
  version: 'v1.5.1',
  usePath: true,
};

export const VERSITYGW: GoTool = {
  name: 'versitygw',
  module: 'github.com/versity/versitygw/cmd/versitygw',
  version: 'v1.8.0',
  usePath: true,
};

export function toolBinDir(cacheDir: string): string {
  return join(cacheDir, 'bin');
}

export function findOnPath(name: string, pathEnv: string): string | undefined {
  for (const dir of pathEnv.split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * The path of a tool built from its pinned module version: on PATH, in the cache, or freshly built with
 * `go install` (minutes the first time). A binary built from another version (a cache left by an older pin,
 * another install on PATH) is not used; the cache copy is rebuilt instead.
 */
export async function ensureGoTool(
  tool: GoTool,
  cacheDir: string,
  pathEnv: string,
  report: (line: string) => void,
): Promise<string> {
  const go = findOnPath('go', pathEnv);
  // Without Go nothing can be checked or built: a binary that is there is the best there is.
  const builtFromPin = async (binary: string) => go === undefined || isBuiltFrom(await goBuildInfo(go, binary), tool);
  const onPath = tool.usePath ? findOnPath(tool.name, pathEnv) : undefined;
  if (onPath && (await builtFromPin(onPath))) return onPath;
  const binDir = join(toolBinDir(cacheDir), tool.dir ?? '');
  const cached = join(binDir, tool.name);
  if (existsSync(cached)) {
    if (await builtFromPin(cached)) return cached;
    report(`${cached} was not built from ${tool.module}@${tool.version}; rebuilding it`);
  }
  if (go === undefined) {
    throw new Error(`${tool.name} is not installed and Go is not on PATH to build it (${tool.module}@${tool.version})`);
  }
  await mkdir(binDir, { recursive: true });
  report(`building ${tool.name} ${tool.version} with go install (first run only; takes a few minutes)…`);
  await run(go, ['install', `${tool.module}@${tool.version}`], { GOBIN: binDir });
  if (!existsSync(cached)) throw new Error(`go install finished but ${cached} is missing`);
  report(`built ${cached}`);
  return cached;
}

export interface GoBuildInfo {
  /** The main package's import path, e.g. github.com/temporalio/cli/cmd/temporal. */
  path: string;
  /** Its module's version, e.g. v1.5.1. */
  version: string;
}

/** What a Go binary says it was built from (`go version -m`); undefined for anything else. */
export async function goBuildInfo(go: string, binary: string): Promise<GoBuildInfo | undefined> {
  const { stdout } = await execFileAsync(go, ['version', '-m', binary]).catch(() => ({ stdout: '' }));
  const path = /^\s*path\s+(\S+)/m.exec(stdout)?.[1];
  const version = /^\s*mod\s+\S+\s+(\S+)/m.exec(stdout)?.[1];
  return path && version ? { path, version } : undefined;
}

export function isBuiltFrom(info: GoBuildInfo | undefined, tool: GoTool): boolean {
  return info?.path === tool.module && info.version === tool.version;
}

function run(command: string, args: string[], extraEnv: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`))));
  });
}

/** redis-server from Debian when missing (the shared token budget's tests need it). */
export async function ensureRedis(pathEnv: string, report: (line: string) => void): Promise<string> {
  const found = findOnPath('redis-server', pathEnv) ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined);
  if (found) return found;
  await installDebianPackages(['redis-server'], report);
  return '/usr/bin/redis-server';
}

/** PostgreSQL 15's server binaries (initdb, postgres, pg_isready) from Debian when missing (the `cluster` tier). */
export async function ensurePostgres(report: (line: string) => void): Promise<string> {
  const binDir = '/usr/lib/postgresql/15/bin';
  if (!existsSync(join(binDir, 'postgres'))) await installDebianPackages(['postgresql-15'], report);
  return binDir;
}

/** Chromium from Debian for the browser tests (no browser download happens at run time). */
export async function ensureChromium(report: (line: string) => void): Promise<string> {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  await installDebianPackages(['chromium'], report);
  return '/usr/bin/chromium';
}

/**
 * The audio tools from Debian when any is missing: ffmpeg/ffprobe (reading and cutting recordings), sox and espeak-ng
 * (the tests' and samples' generated calls), pocketsphinx with its US English model (the simulator's transcriber for
 * audio that carries no script). Whisper bindings on npm fetch their weights from a model hub at run time, which this
 * machine cannot reach; Debian ships these whole.
 */
export const SPEECH_TOOLS: ReadonlyArray<{ binary: string; debianPackage: string }> = [
  { binary: '/usr/bin/ffmpeg', debianPackage: 'ffmpeg' },
  { binary: '/usr/bin/ffprobe', debianPackage: 'ffmpeg' },
  { binary: '/usr/bin/sox', debianPackage: 'sox' },
  { binary: '/usr/bin/espeak-ng', debianPackage: 'espeak-ng' },
  { binary: '/usr/bin/pocketsphinx_continuous', debianPackage: 'pocketsphinx' },
  { binary: '/usr/share/pocketsphinx/model/en-us/en-us.lm.bin', debianPackage: 'pocketsphinx-en-us' },
];

export async function ensureSpeechTools(report: (line: string) => void): Promise<void> {
  const missing = [...new Set(SPEECH_TOOLS.filter((tool) => !existsSync(tool.binary)).map((tool) => tool.debianPackage))];
  if (missing.length > 0) await installDebianPackages(missing, report);
}

async function installDebianPackages(packages: string[], report: (line: string) => void): Promise<void> {
  report(`installing ${packages.join(', ')} from Debian…`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const aptGet = async (...args: string[]) => {
    const [command, ...rest] = [...sudo, 'apt-get', ...args];
    await execFileAsync(command as string, rest, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      maxBuffer: 64 * 1024 * 1024,
    });
  };
  try {
    await aptGet('install', '-y', '--no-install-recommends', ...packages);
  } catch {
    await aptGet('update');
    await aptGet('install', '-y', '--no-install-recommends', ...packages);
  }
}
