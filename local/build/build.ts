import { spawn } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PREBUILT_REVIEWER_SCRIPT, buildReviewerScript } from '../../reviewer/build';
import { WORKFLOW_BUNDLE_FILE, bundleWorkflows } from '../../workers/create-workers';

const REPO_ROOT = join(__dirname, '..', '..');

/** What `npm run build` leaves in the output folder besides the compiled JavaScript. */
export const BUILT_ENTRYPOINTS = [
  'workers/main.js',
  'api/main.js',
  'cli/main.js',
  'ops/replay-command.js',
  'ops/ops-command.js',
  'ops/capacity-command.js',
];

export interface BuildOptions {
  /**
   * Where the artifact goes (default dist/). It must sit inside the repository: the compiled code finds its npm
   * packages in the node_modules folder above it, as `node dist/…` does in the image.
   */
  outDir?: string;
  report?: (line: string) => void;
}

/**
 * `npm run build`: type-check and compile the product (tsconfig.build.json), then everything a process would
 * otherwise build at start: the workflow bundle (webpack, seconds per worker) and the reviewer page's script
 * (esbuild), plus the static files and JSON schemas the compiled code reads beside it.
 */
export async function buildArtifact(options: BuildOptions = {}): Promise<string> {
  const outDir = resolve(REPO_ROOT, options.outDir ?? 'dist');
  const report = options.report ?? ((line: string) => console.log(`[build] ${line}`));
  await rm(outDir, { recursive: true, force: true });

  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await Promise.all([
    run(process.execPath, [tsc, '-p', join(REPO_ROOT, 'tsconfig.build.json'), '--outDir', outDir]),
    // The reviewer page's browser code is bundled by esbuild, which strips types without checking them.
    run(process.execPath, [tsc, '--noEmit', '-p', join(REPO_ROOT, 'reviewer', 'browser', 'tsconfig.json')]),
  ]);
  report(`type-checked and compiled the product to ${outDir}`);

  // Read at run time by path, not through an import the compiler would follow.
  await cp(join(REPO_ROOT, 'reviewer', 'static'), join(outDir, 'reviewer', 'static'), { recursive: true });
  await cp(join(REPO_ROOT, 'common', 'schemas'), join(outDir, 'common', 'schemas'), { recursive: true });

  // Bundled from the same sources and interceptor list the workers bundle in development and the replay tests use.
  const bundle = await bundleWorkflows();
  await writeFile(join(outDir, WORKFLOW_BUNDLE_FILE), bundle.code);
  report(`workflow bundle ${WORKFLOW_BUNDLE_FILE} (${Math.round(bundle.code.length / 1024)} KiB)`);

  const script = await buildReviewerScript();
  const scriptPath = join(outDir, 'reviewer', PREBUILT_REVIEWER_SCRIPT);
  await mkdir(dirname(scriptPath), { recursive: true });
  await writeFile(scriptPath, script.code);
  report(`reviewer page script reviewer/${PREBUILT_REVIEWER_SCRIPT}`);
  return outDir;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`${args.slice(0, 3).join(' ')} exited ${code}: the build stops at a type error`)),
    );
  });
}

if (require.main === module) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  buildArtifact(values['out-dir'] ? { outDir: values['out-dir'] } : {}).then(
    (outDir) =>
      console.log(`[build] done: node ${join(outDir, 'workers', 'main.js')} | node ${join(outDir, 'api', 'main.js')}`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
