import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ProcessSpec } from './supervisor';

const execFileAsync = promisify(execFile);

/** How Temporal (and its SQL tool) reach the private PostgreSQL: loopback TCP with a password. */
export interface PostgresAddress {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** Local only (loopback, a data folder of its own); a production database's credentials come from its operator. */
export const LOCAL_POSTGRES_USER = 'temporal';
export const LOCAL_POSTGRES_PASSWORD = 'slowlane-local-postgres';

// PostgreSQL refuses to run as root; as root we run it as Debian's `postgres` account.
const RUN_AS = 'postgres';

/**
 * A private PostgreSQL cluster in `dir` (initdb on first use, kept afterwards), listening on 127.0.0.1:port with
 * its unix socket in the same folder, so it never touches the machine's own PostgreSQL or /var/run.
 */
export async function initPostgres(binDir: string, dir: string, address: PostgresAddress): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  await mkdir(dir, { recursive: true });
  const owner = await runAsOwner();
  if (owner) {
    await chown(dir, owner.uid, owner.gid);
    // The account must pass through our (0700) data folders to reach its own.
    for (let parent = dirname(dir); parent !== dirname(parent); parent = dirname(parent)) {
      const { mode } = await stat(parent);
      if ((mode & 0o001) === 0) await chmod(parent, mode | 0o001);
    }
  }
  await chmod(dir, 0o700);
  const passwordFile = join(dirname(dir), `.${RUN_AS}-password`);
  await writeFile(passwordFile, address.password, { mode: 0o644 });
  try {
    const { command, args } = asPostgresOwner(join(binDir, 'initdb'), owner !== undefined, [
      '-D',
      dir,
      '-U',
      address.user,
      `--pwfile=${passwordFile}`,
      // Only our own processes reach it: the socket lives in the 0700 folder, TCP needs the password.
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--no-locale',
    ]);
    await execFileAsync(command, args);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** The postgres process for the Supervisor; ready once it accepts connections. */
export async function postgresProcessSpec(binDir: string, dir: string, address: PostgresAddress): Promise<ProcessSpec> {
  const { command, args } = asPostgresOwner(join(binDir, 'postgres'), (await runAsOwner()) !== undefined, [
    '-D',
    dir,
    '-c',
    `listen_addresses=${address.host}`,
    '-p',
    String(address.port),
    '-c',
    `unix_socket_directories=${dir}`,
    // Four services with a few connections each, plus the SQL tool and a fault test's second cluster.
    '-c',
    'max_connections=200',
  ]);
  return {
    name: 'postgres',
    command,
    args,
    ready: async () => {
      const ready = await execFileAsync(join(binDir, 'pg_isready'), ['-h', address.host, '-p', String(address.port), '-t', '1']).then(
        () => true,
        () => false,
      );
      return ready;
    },
    readyTimeoutMs: 60_000,
  };
}

async function runAsOwner(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const [uid, gid] = await Promise.all(['-u', '-g'].map(async (flag) => Number((await execFileAsync('id', [flag, RUN_AS])).stdout.trim())));
  return { uid: uid as number, gid: gid as number };
}

/** setpriv execs (no extra process), so the supervisor's signals reach postgres itself. */
function asPostgresOwner(binary: string, switchUser: boolean, args: string[]): { command: string; args: string[] } {
  if (!switchUser) return { command: binary, args };
  return { command: 'setpriv', args: [`--reuid=${RUN_AS}`, `--regid=${RUN_AS}`, '--clear-groups', binary, ...args] };
}
