import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findOnPath } from './tools';

const execFileAsync = promisify(execFile);

/**
 * A command-line tool from PyPI, installed with pip into a virtualenv of its own in the tool cache (outside the
 * repo), from a requirements file that pins it and everything it pulls in, so every machine runs the same build.
 */
export interface PythonTool {
  /** The console script the package installs, e.g. `schemathesis`. */
  name: string;
  /** A pip requirements file of `name==version` lines. */
  requirementsFile: string;
}

export const SCHEMATHESIS: PythonTool = {
  name: 'schemathesis',
  requirementsFile: join(__dirname, 'schemathesis-requirements.txt'),
};

/** Written last, so a half-finished install (pip interrupted, no network) is never taken for a finished one. */
const INSTALLED_MARKER = '.slowlane-installed';

/**
 * The path of the tool's console script, installing it first when its virtualenv for these exact requirements is
 * not in the cache yet (`python3 -m venv`, then `pip install -r`; some 15 s here). Another requirements file gets
 * another virtualenv, so a changed pin never runs the old build.
 */
export async function ensurePythonTool(
  tool: PythonTool,
  cacheDir: string,
  pathEnv: string,
  report: (line: string) => void,
): Promise<string> {
  const requirements = await readFile(tool.requirementsFile, 'utf8');
  const digest = createHash('sha256').update(requirements).digest('hex').slice(0, 12);
  const venv = join(cacheDir, 'venvs', `${tool.name}-${digest}`);
  const script = join(venv, 'bin', tool.name);
  if (existsSync(join(venv, INSTALLED_MARKER)) && existsSync(script)) return script;

  const python = findOnPath('python3', pathEnv);
  if (python === undefined) throw new Error(`${tool.name} is not installed and python3 is not on PATH to install it`);
  report(`installing ${tool.name} from PyPI into ${venv} (first run only)…`);
  await rm(venv, { recursive: true, force: true });
  try {
    await execFileAsync(python, ['-m', 'venv', venv]);
    await execFileAsync(
      join(venv, 'bin', 'python'),
      ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', tool.requirementsFile],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    await rm(venv, { recursive: true, force: true });
    throw new Error(
      `installing ${tool.name} failed: ${(error as { stderr?: string }).stderr || (error as Error).message}`,
      { cause: error },
    );
  }
  if (!existsSync(script)) throw new Error(`pip installed the requirements of ${tool.name} but ${script} is missing`);
  await writeFile(join(venv, INSTALLED_MARKER), requirements);
  report(`installed ${script}`);
  return script;
}
