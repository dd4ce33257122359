import assert from '../support/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';
import { productAreas } from '../../lib/config/product-areas';
import { BUILT_ENTRYPOINTS } from '../../local/build/build';

/**
 * No Docker engine runs where the suite runs, so the image is never built here. What can be checked without one:
 * the Dockerfile only runs npm scripts that exist and starts files `npm run build` makes, compose.yaml and the
 * Kubernetes manifests parse and run the same image with `node dist/…` entrypoints the build produces.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const packageJson = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string> };
const IMAGE_REPOSITORY = 'registry.example.invalid/slowlane/slowlane';
const IMAGE = `${IMAGE_REPOSITORY}:${packageJson.version}`;

interface Stage {
  name: string;
  from: string;
  instructions: Array<{ keyword: string; args: string }>;
}

/** Dockerfile instructions by stage: continuation lines joined, comments dropped, ARG defaults substituted. */
function dockerfileStages(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim());
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const expanded = rest.replace(/\$\{(\w+)\}/g, (_, name: string) => args[name] ?? '');
    if (keyword === 'ARG' && stages.length === 0) {
      const [name, value] = expanded.split('=');
      if (name && value) args[name] = value;
    } else if (keyword === 'FROM') {
      const [, from = '', name = ''] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(expanded) ?? [];
      stages.push({ name, from, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword, args: expanded });
    }
  }
  return stages;
}

function stage(stages: Stage[], name: string): Stage {
  const found = stages.find((candidate) => candidate.name === name);
  assert.ok(found, `stage ${name} exists`);
  return found;
}

const runs = (s: Stage) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const jsonArgs = (s: Stage, keyword: string) =>
  JSON.parse(s.instructions.find((i) => i.keyword === keyword)?.args ?? 'null') as string[] | null;

/** The folders tsconfig.build.json compiles into dist/. */
function builtFolders(): string[] {
  const { config, error } = ts.readConfigFile(join(ROOT, 'tsconfig.build.json'), ts.sys.readFile);
  assert.equal(error, undefined);
  return (config as { include: string[] }).include;
}

/** `dist/api/main.js` is an entrypoint `npm run build` makes: listed by the build, compiled from a source file that exists. */
function assertBuiltEntrypoint(path: string, where: string): void {
  const match = /^dist\/(.+)\.js$/.exec(path);
  assert.ok(match?.[1], `${where}: ${path} is a file under dist/`);
  assert.ok(BUILT_ENTRYPOINTS.includes(`${match[1]}.js`), `${where}: ${path} is one of the build's entrypoints`);
  assert.ok(existsSync(join(ROOT, `${match[1]}.ts`)), `${where}: ${match[1]}.ts exists`);
  assert.ok(
    builtFolders().includes(match[1].split('/')[0] as string),
    `${where}: its folder is compiled by tsconfig.build.json`,
  );
}

/** Any `dist/…` module a command names (also inside `node -e "require('./dist/…')"`). */
function distPathsIn(command: string[]): string[] {
  return command.flatMap((part) =>
    [...part.matchAll(/(?:^|\.\/)(dist\/[\w/-]+(?:\.js)?)/g)].map((m) => (m[1]?.endsWith('.js') ? m[1] : `${m[1]}.js`)),
  );
}

describe('the Dockerfile', () => {
  const stages = dockerfileStages(read('Dockerfile'));

  test('when parsed, then a build stage and a runtime stage on Node 24 slim run only npm scripts that exist', () => {
    const build = stage(stages, 'build');
    const runtime = stage(stages, 'runtime');
    for (const s of [build, runtime])
      assert.match(s.from, /^node:24(\.\d+)*-(bookworm-)?slim$/, `${s.name} is Node 24 slim`);
    assert.ok(
      runs(build).some((command) => /^npm ci\b/.test(command) && !command.includes('--omit=dev')),
      'the build stage installs every dependency',
    );
    for (const command of runs(build)) {
      for (const [, script] of command.matchAll(/npm run (\S+)/g))
        assert.ok(script && packageJson.scripts[script], `npm run ${script} exists`);
    }
    assert.ok(runs(build).includes('npm run build'));
  });

  test('when the runtime stage is read, then it has production dependencies and dist/ only, runs as a user and under tini', () => {
    const runtime = stage(stages, 'runtime');
    assert.ok(runs(runtime).some((command) => command.includes('npm ci --omit=dev')));
    const copies = runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    assert.ok(copies.includes('--from=build /app/dist ./dist'), copies.join('; '));
    assert.ok(
      copies.every((copy) => copy.startsWith('--from=build /app/dist') || /^package(-lock)?\.json/.test(copy)),
      'nothing else from the source tree',
    );
    const user = runtime.instructions.filter((i) => i.keyword === 'USER').at(-1)?.args;
    assert.ok(user && !/^(0|root)(:|$)/.test(user), `USER ${user} is not root`);
    assert.match(user, /^\d+(:\d+)?$/, 'numeric, so Kubernetes can check runAsNonRoot');
    assert.deepEqual(jsonArgs(runtime, 'ENTRYPOINT'), ['/usr/bin/tini', '--']);
    assert.ok(runs(runtime).some((command) => /apt-get install .*\btini\b/.test(command)));
    const cmd = jsonArgs(runtime, 'CMD');
    assert.equal(cmd?.[0], 'node');
    for (const path of distPathsIn(cmd ?? [])) assertBuiltEntrypoint(path, 'Dockerfile CMD');
    assert.ok(!runtime.instructions.some((i) => /\btsx\b/.test(i.args)), 'the runtime stage never runs tsx');
  });

  test('when .dockerignore is read, then nothing installed or built on the host goes into the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['node_modules', 'dist', '.data', '.git']) assert.ok(ignored.includes(entry), entry);
  });
});

interface ComposeService {
  image?: string;
  ports?: string[];
  build?: { target?: string };
  command?: string[];
  network_mode?: string;
  environment?: Record<string, string>;
}

describe('compose.yaml', () => {
  const document = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = document.services;

  test('when parsed, then the product runs beside Temporal, PostgreSQL, Redis and an S3 server', () => {
    for (const name of ['api', 'worker-interactive', 'worker-bulk', 'temporal', 'postgresql', 'redis', 's3'])
      assert.ok(services[name], name);
    assert.equal(services.temporal?.environment?.DB, 'postgres12', 'Temporal persists in PostgreSQL');
  });

  test('when the product services are read, then they run the Kubernetes image’s runtime stage with built entrypoints', () => {
    for (const name of ['api', 'worker-interactive', 'worker-bulk', 's3-setup']) {
      const service = services[name];
      assert.ok(service, name);
      assert.equal(service.image, `\${SLOWLANE_IMAGE:-${IMAGE}}`, `${name} image`);
      assert.equal(service.build?.target, 'runtime');
      assert.equal(service.command?.[0], 'node', `${name} runs node, never tsx`);
      const paths = distPathsIn(service.command ?? []);
      assert.ok(paths.length > 0, `${name} starts something from dist/`);
      for (const path of paths) {
        if (name === 's3-setup')
          assert.ok(existsSync(join(ROOT, path.replace(/^dist\//, '').replace(/\.js$/, '.ts'))), path);
        else assertBuiltEntrypoint(path, `compose ${name}`);
      }
    }
    assert.equal(services['worker-interactive']?.environment?.WORKER_PRIORITIES, 'interactive');
    assert.equal(services['worker-bulk']?.environment?.WORKER_PRIORITIES, 'bulk');
  });

  test('when the Temporal setup is read, then it creates every search attribute the dev server registers', () => {
    const wanted = (parse(read('temporal-dev.yaml')) as { searchAttributes: Record<string, string> }).searchAttributes;
    const command = (services['temporal-setup']?.command ?? []).join(' ');
    const created = Object.fromEntries([...command.matchAll(/--name (\w+) --type (\w+)/g)].map((m) => [m[1], m[2]]));
    assert.deepEqual(created, wanted);
  });

  test('when a port is published, then it binds the host’s loopback unless SLOWLANE_BIND says otherwise', () => {
    const published = Object.entries(services).flatMap(([name, service]) => (service.ports ?? []).map((port) => ({ name, port: String(port) })));
    assert.ok(published.length >= 6, 'the API, its metrics, Temporal and its Web UI are published');
    for (const { name, port } of published) assert.match(port, /^\$\{SLOWLANE_BIND:-127\.0\.0\.1\}:(\d+):\1$/, `${name} publishes ${port}`);
  });

  test('when a stand-in runs, then it listens on loopback inside the API’s network namespace, from the stand-ins stage', () => {
    for (const name of ['simulator', 'ledger']) {
      assert.equal(services[name]?.build?.target, 'standins');
      assert.equal(services[name]?.network_mode, 'service:api');
    }
    for (const name of ['worker-interactive', 'worker-bulk']) assert.equal(services[name]?.network_mode, 'service:api');
  });
});

describe('Kubernetes manifests and the image', () => {
  interface Container {
    image?: string;
    command?: string[];
    args?: string[];
    env?: Array<{ name: string; value?: string }>;
    securityContext?: { runAsNonRoot?: boolean };
  }
  const containers: Array<{ file: string; container: Container }> = readdirSync(join(ROOT, 'deploy', 'k8s'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(read(join('deploy', 'k8s', file))).flatMap((document) => {
        assert.deepEqual(document.errors, [], `${file} parses`);
        const manifest = document.toJS() as {
          kind?: string;
          spec?: { template?: { spec?: { containers?: Container[] } } };
        };
        return (manifest.spec?.template?.spec?.containers ?? []).map((container) => ({ file, container }));
      }),
    );

  test('when every Deployment is read, then the Slowlane containers name the one documented image and a built entrypoint', () => {
    const ours = containers.filter(({ container }) => container.image?.includes('slowlane'));
    const workerFiles = readdirSync(join(ROOT, 'deploy', 'k8s')).filter((file) => /^workers-.+\.yaml$/.test(file));
    assert.ok(workerFiles.length >= 1, 'at least one worker build');
    assert.equal(ours.length, 1 + 2 * workerFiles.length, 'the API and, per worker build, a worker per queue');
    // The API and the newest worker build run this version's image; an older build beside it keeps its own tag.
    assert.equal(ours.find(({ file }) => file === 'api.yaml')?.container.image, IMAGE);
    assert.ok(ours.some(({ file, container }) => file !== 'api.yaml' && container.image === IMAGE), `a worker build of ${IMAGE}`);
    for (const { file, container } of ours) {
      assert.ok(container.image?.startsWith(`${IMAGE_REPOSITORY}:`), `${file}: ${container.image} is the documented placeholder`);
      assert.equal(container.command, undefined, `${file}: args, not command, so tini stays the entrypoint`);
      assert.equal(container.args?.[0], 'node', file);
      const paths = distPathsIn(container.args ?? []);
      assert.equal(paths.length, 1, file);
      assertBuiltEntrypoint(paths[0] as string, file);
      assert.equal(container.securityContext?.runAsNonRoot, true, file);
    }
  });

  test('when a worker Deployment is read, then its build id is its image’s tag, so no image change can leave a build under another’s name', () => {
    const workers = containers.filter(({ container }) => container.args?.includes('dist/workers/main.js'));
    assert.ok(workers.length >= 2);
    for (const { file, container } of workers) {
      const buildId = container.env?.find((variable) => variable.name === 'WORKER_BUILD_ID')?.value;
      assert.ok(buildId, `${file} sets WORKER_BUILD_ID`);
      assert.ok(container.image?.endsWith(`:${buildId}`), `${file}: ${container.image} is tagged ${buildId}`);
    }
  });

  test('when a manifest names an image, then it is no placeholder of another registry', () => {
    for (const { file, container } of containers)
      assert.doesNotMatch(container.image ?? '', /ghcr\.io\/example|:latest$/, file);
  });
});

describe('the settings no process starts without', () => {
  const required = productAreas.flatMap((area) => Object.values(area.settings)).filter((setting) => setting.required !== undefined);

  test('when the deployment files are read, then compose.yaml, the Kubernetes config and the Dockerfile name each one', () => {
    assert.ok(required.length >= 4, `found ${required.map((setting) => setting.env).join(', ')}`);
    const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
    const apiEnv = compose.services.api?.environment ?? {};
    const k8s = read('deploy/k8s/configmap.yaml');
    const dockerfile = read('Dockerfile');
    for (const { env, required: when } of required) {
      assert.match(k8s, new RegExp(`\\b${env}\\b`), `deploy/k8s/configmap.yaml names ${env}`);
      assert.match(dockerfile, new RegExp(`\\b${env}\\b`), `Dockerfile names ${env}`);
      // Production-only ones (the model key) are the simulator's business in compose.
      if (when === 'always') assert.ok(env in apiEnv, `compose gives the api ${env}`);
    }
  });

  test('when compose gives a secret, then it comes from the environment and stops compose when missing, never a value in the file', () => {
    const text = read('compose.yaml');
    for (const { env, required: when } of required) {
      if (when !== 'always' || env === 'SLOWLANE_ENV') continue;
      assert.match(text, new RegExp(`${env}: \\$\\{${env}:\\?`), `${env} is \${${env}:?…}`);
    }
  });
});
