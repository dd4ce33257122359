import assert from '../support/assert';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { PRIORITIES, type Priority } from '../../common/task-queues';
import { readerFor } from '../../lib/config/load-config';
import { productAreas } from '../../lib/config/product-areas';
import { workerArea } from '../../lib/config/worker-settings';
import { ConfigError } from '../../lib/settings/config-error';
import { workerBuildInputs } from '../../ops/worker-build-inputs';
import {
  BUILD_ID_LABEL,
  buildIdOfImage,
  workerBuildFileName,
  workerBuildManifests,
  workerBuildYaml,
  workerName,
} from '../../ops/worker-build-manifests';

/**
 * The per-build worker manifests (deploy/k8s/workers-<build>.yaml, `npm run k8s:worker-build`). Nothing is applied
 * to a cluster here: the files are parsed, rendered again and read with the product's own setting tables.
 */
const ROOT = join(__dirname, '..', '..');
const K8S = join(ROOT, 'deploy', 'k8s');
const ROOT_ENV = { ...process.env };

interface Container {
  image?: string;
  env?: Array<{ name: string; value?: string }>;
  envFrom?: Array<{ configMapRef?: { name: string } }>;
}
interface K8sObject {
  kind: string;
  data?: Record<string, string>;
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    selector?: { matchLabels: Record<string, string> };
    scaleTargetRef?: { name: string };
    template?: {
      metadata: { labels: Record<string, string> };
      spec: { terminationGracePeriodSeconds: number; containers: Container[] };
    };
    triggers?: Array<{ metadata: Record<string, string> }>;
  };
}

const objectsOf = (text: string): K8sObject[] =>
  parseAllDocuments(text).map((document) => {
    assert.deepEqual(document.errors, []);
    return document.toJS() as K8sObject;
  });
const buildFiles = () => readdirSync(K8S).filter((file) => /^workers-.+\.yaml$/.test(file));
const configMap = () =>
  objectsOf(readFileSync(join(K8S, 'configmap.yaml'), 'utf8')).find((object) => object.kind === 'ConfigMap')?.data ?? {};
const containerOf = (deployment: K8sObject): Container => {
  const [container] = deployment.spec.template?.spec.containers ?? [];
  assert.ok(container, deployment.metadata.name);
  return container;
};
const envOf = (container: Container) =>
  Object.fromEntries((container.env ?? []).map(({ name, value }) => [name, value ?? '']));
const one = (objects: K8sObject[], kind: string, name: string): K8sObject => {
  const found = objects.filter((object) => object.kind === kind && object.metadata.name === name);
  assert.equal(found.length, 1, `one ${kind} ${name}`);
  return found[0] as K8sObject;
};

describe('worker builds on Kubernetes', () => {
  test('when a committed build file is rendered again from its image and the ConfigMap, then it is unchanged', () => {
    for (const file of buildFiles()) {
      const text = readFileSync(join(K8S, file), 'utf8');
      const image = containerOf(objectsOf(text).find((object) => object.kind === 'Deployment') as K8sObject).image ?? '';
      assert.equal(file, workerBuildFileName(buildIdOfImage(image)));
      assert.equal(text, workerBuildYaml(workerBuildInputs(configMap(), image)), `${file}: npm run k8s:worker-build -- --image ${image}`);
    }
  });

  test('when a build’s objects are read, then names, labels, selector, WORKER_BUILD_ID and the KEDA trigger all name the image’s tag', () => {
    for (const file of buildFiles()) {
      const objects = objectsOf(readFileSync(join(K8S, file), 'utf8'));
      const buildId = buildIdOfImage(containerOf(objects[0] as K8sObject).image ?? '');
      assert.equal(objects.length, 2 * PRIORITIES.length, `${file}: a Deployment and a ScaledObject per queue`);
      for (const priority of PRIORITIES) {
        const name = workerName(priority, buildId);
        const deployment = one(objects, 'Deployment', name);
        const scaled = one(objects, 'ScaledObject', name);
        const podLabels = deployment.spec.template?.metadata.labels ?? {};
        for (const labels of [deployment.metadata.labels, scaled.metadata.labels, podLabels, deployment.spec.selector?.matchLabels])
          assert.deepEqual(labels, { app: 'slowlane-worker', queue: priority, [BUILD_ID_LABEL]: buildId }, name);
        const container = containerOf(deployment);
        assert.equal(container.image?.endsWith(`:${buildId}`), true);
        assert.equal(envOf(container).WORKER_BUILD_ID, buildId);
        assert.equal(envOf(container).WORKER_PRIORITIES, priority);
        assert.equal(scaled.spec.scaleTargetRef?.name, name);
        assert.equal(scaled.spec.triggers?.[0]?.metadata.workerDeploymentBuildId, buildId);
      }
    }
  });

  test('when a worker’s environment is read with the settings tables, then versioning is on, its build is the image tag and SIGTERM drains inside the grace period', () => {
    const data = configMap();
    const known = new Set(productAreas.flatMap((area) => Object.values(area.settings).map((setting) => setting.env)));
    for (const name of Object.keys(data)) assert.ok(known.has(name), `ConfigMap key ${name} is a setting (lib/config)`);
    for (const file of buildFiles()) {
      for (const deployment of objectsOf(readFileSync(join(K8S, file), 'utf8')).filter((o) => o.kind === 'Deployment')) {
        const container = containerOf(deployment);
        const env = envOf(container);
        for (const name of Object.keys(env)) assert.ok(known.has(name), `${file}: ${name} is a setting (lib/config)`);
        assert.ok(container.envFrom?.some((source) => source.configMapRef?.name === 'slowlane-config'));
        // What the worker process reads: the ConfigMap, then the container's own env on top (Kubernetes' order).
        const reader = readerFor({ ...data, ...env });
        const worker = reader.readTable(workerArea.settings);
        reader.finish();
        assert.equal(worker.versioning, true, `${file}: WORKER_VERSIONING on`);
        assert.equal(worker.buildId, buildIdOfImage(container.image ?? ''));
        assert.deepEqual(worker.priorities, [deployment.metadata.labels?.queue as Priority]);
        const scaled = one(objectsOf(readFileSync(join(K8S, file), 'utf8')), 'ScaledObject', deployment.metadata.name);
        assert.equal(scaled.spec.triggers?.[0]?.metadata.workerDeploymentName, worker.deploymentName);
        // Kubernetes sends SIGKILL at terminationGracePeriodSeconds: the activities' grace plus time to close.
        const killAfterMs = (deployment.spec.template?.spec.terminationGracePeriodSeconds ?? 30) * 1000;
        assert.ok(worker.shutdownGraceMs + 10_000 <= killAfterMs, `${worker.shutdownGraceMs} ms + 10 s ≤ ${killAfterMs} ms`);
      }
    }
  });

  test('when the next build is rendered beside the current one, then no name, selector or build id is shared', () => {
    const inputs = (tag: string) => workerBuildInputs(configMap(), `registry.example.invalid/slowlane/slowlane:${tag}`);
    const [current, next] = [workerBuildManifests(inputs('0.1.0')), workerBuildManifests(inputs('0.2.0'))] as K8sObject[][];
    const names = (objects: K8sObject[] = []) => objects.map((object) => `${object.kind}/${object.metadata.name}`);
    assert.deepEqual(names(next).filter((name) => names(current).includes(name)), []);
    assert.deepEqual(names(next), [
      'Deployment/slowlane-worker-interactive-0-2-0',
      'ScaledObject/slowlane-worker-interactive-0-2-0',
      'Deployment/slowlane-worker-bulk-0-2-0',
      'ScaledObject/slowlane-worker-bulk-0-2-0',
    ]);
    const selects = (selector: Record<string, string> = {}, labels: Record<string, string> = {}) =>
      Object.entries(selector).every(([key, value]) => labels[key] === value);
    for (const a of (current ?? []).filter((o) => o.kind === 'Deployment'))
      for (const b of (next ?? []).filter((o) => o.kind === 'Deployment'))
        assert.equal(selects(a.spec.selector?.matchLabels, b.spec.template?.metadata.labels), false, `${a.metadata.name} ⊅ ${b.metadata.name}`);
  });

  test('when an image has no usable tag, then no build is rendered for it', () => {
    assert.equal(buildIdOfImage('registry.example.invalid:5000/slowlane/slowlane:1.4.0-rc.1'), '1.4.0-rc.1');
    assert.equal(buildIdOfImage('registry.example.invalid/slowlane/slowlane:2.0@sha256:0123abcd'), '2.0');
    for (const image of [
      'registry.example.invalid:5000/slowlane/slowlane',
      'registry.example.invalid/slowlane/slowlane@sha256:0123abcd',
      'registry.example.invalid/slowlane/slowlane:latest',
      'registry.example.invalid/slowlane/slowlane:-x',
      'registry.example.invalid/slowlane/slowlane:__x',
      `registry.example.invalid/slowlane/slowlane:${'9'.repeat(40)}`,
    ])
      assert.throws(() => buildIdOfImage(image), /tag/, image);
  });

  test('when the ConfigMap turns versioning off or names a bad setting, then the render stops with the settings error', () => {
    const image = 'registry.example.invalid/slowlane/slowlane:0.2.0';
    assert.throws(() => workerBuildInputs({ ...configMap(), WORKER_VERSIONING: 'false' }, image), ConfigError);
    assert.throws(() => workerBuildInputs({ ...configMap(), GATEWAY_OTPM: 'lots' }, image), /GATEWAY_OTPM/);
  });

  test('when the command is run with a tag, then it writes the build file beside the manifests with the API image’s repository', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slowlane-k8s-'));
    try {
      for (const file of ['configmap.yaml', 'api.yaml']) copyFileSync(join(K8S, file), join(dir, file));
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'ops', 'worker-build-command.ts'), '--dir', dir, '--tag', '0.2.0'], {
        env: ROOT_ENV,
        stdio: 'pipe',
      });
      const written = readFileSync(join(dir, 'workers-0-2-0.yaml'), 'utf8');
      assert.equal(written, workerBuildYaml(workerBuildInputs(configMap(), 'registry.example.invalid/slowlane/slowlane:0.2.0')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
