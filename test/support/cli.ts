import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { apiUrl, demo } from './api-client';

const REPO_ROOT = join(__dirname, '..', '..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npx slowlane …` from the repository, as a user would type it, against the test stack; `stdin` is piped in. */
export function slowlane(args: string[], options: { stdin?: string; apiKey?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', 'slowlane', ...args, '--api', apiUrl(), '--key', options.apiKey ?? demo.apiKey], {
      cwd: REPO_ROOT,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
