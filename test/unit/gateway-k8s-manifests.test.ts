import assert from '../support/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import { parseAllDocuments } from 'yaml';
import { PRIORITIES, taskQueueFor } from '../../common/task-queues';
import { planCapacity } from '../../gateway/capacity-plan';
import { capacityInputs } from '../../ops/capacity-inputs';
import { BUILD_ID_LABEL, workerName } from '../../ops/worker-build-manifests';

const DIR = join(__dirname, '..', '..', 'deploy', 'k8s');

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  data?: Record<string, string>;
  spec?: Record<string, unknown>;
}

interface Container {
  env?: Array<{ name: string; value?: string }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
}

function manifests(): Manifest[] {
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((document) => {
        assert.deepEqual(document.errors, [], `${file} parses`);
        return document.toJS() as Manifest;
      }),
    );
}

function find(all: Manifest[], kind: string, name: string): Manifest {
  const found = all.find((manifest) => manifest.kind === kind && manifest.metadata?.name === name);
  assert.ok(found, `${kind} ${name} exists`);
  return found;
}

/** The build ids that have worker Deployments (one file per build, deploy/k8s/workers-<build>.yaml). */
function workerBuilds(all: Manifest[]): string[] {
  const builds = all
    .filter((manifest) => manifest.kind === 'Deployment' && manifest.metadata?.labels?.app === 'slowlane-worker')
    .map((manifest) => manifest.metadata?.labels?.[BUILD_ID_LABEL]);
  assert.ok(builds.every((build) => build !== undefined), 'every worker Deployment names its build');
  return [...new Set(builds as string[])];
}

function containersOf(deployment: Manifest): Container[] {
  const template = deployment.spec?.template as { spec?: { containers?: Container[] } } | undefined;
  return template?.spec?.containers ?? [];
}

describe('Kubernetes and KEDA manifests', () => {
  test('when every file is parsed, then each document is a named Kubernetes object', () => {
    const all = manifests();
    assert.ok(all.length >= 8);
    for (const manifest of all) {
      assert.ok(
        manifest.apiVersion && manifest.kind && manifest.metadata?.name,
        JSON.stringify(manifest).slice(0, 120),
      );
    }
  });

  test('when the Deployments are read, then there is the API and, for every worker build, one worker per queue with the shared settings', () => {
    const all = manifests();
    const config = find(all, 'ConfigMap', 'slowlane-config');
    find(all, 'Deployment', 'slowlane-api');
    const builds = workerBuilds(all);
    assert.ok(builds.length >= 1, 'at least one worker build');
    for (const build of builds) {
      for (const priority of PRIORITIES) {
        const [container] = containersOf(find(all, 'Deployment', workerName(priority, build)));
        assert.ok(container);
        assert.equal(container.env?.find((variable) => variable.name === 'WORKER_PRIORITIES')?.value, priority);
        assert.ok(container.envFrom?.some((source) => source.configMapRef?.name === config.metadata?.name));
      }
    }
  });

  test('when the ScaledObjects are read, then each scales its own build’s worker of its queue on that version’s backlog, capped by the budget’s plan', () => {
    const all = manifests();
    const data = find(all, 'ConfigMap', 'slowlane-config').data ?? {};
    // Production refuses to load without these (the Secret holds them); they play no part in the plan.
    const config = localTestConfig({ ...data, ANTHROPIC_API_KEY: 'unused', SPEECH_API_KEY: 'unused' });
    for (const [build, priority] of workerBuilds(all).flatMap((b) => PRIORITIES.map((p) => [b, p] as const))) {
      const scaled = find(all, 'ScaledObject', workerName(priority, build));
      const spec = scaled.spec as {
        scaleTargetRef: { name: string };
        maxReplicaCount: number;
        triggers: Array<{ type: string; metadata: Record<string, string> }>;
      };
      assert.equal(spec.scaleTargetRef.name, workerName(priority, build));
      const [trigger] = spec.triggers;
      assert.equal(trigger?.type, 'temporal');
      assert.equal(trigger.metadata.taskQueue, taskQueueFor(priority, config.temporal.taskQueuePrefix));
      assert.equal(trigger.metadata.namespace, config.temporal.namespace);
      assert.equal(trigger.metadata.endpoint, config.temporal.address);
      // Without both, KEDA reads the unversioned queue, which versioned workers never fill.
      assert.equal(trigger.metadata.workerDeploymentName, config.worker.deploymentName);
      assert.equal(trigger.metadata.workerDeploymentBuildId, build);

      const annotations = scaled.metadata?.annotations ?? {};
      const plan = planCapacity(
        capacityInputs(config, {
          cpuMsPerJob: Number(annotations['slowlane.dev/plan-cpu-ms-per-job']),
          coresPerWorker: Number(annotations['slowlane.dev/plan-cores-per-worker']),
        }),
      );
      assert.equal(
        spec.maxReplicaCount,
        plan.workersWorthRunning,
        'maxReplicaCount = workers worth running (npm run capacity)',
      );
      assert.equal(
        Number(trigger.metadata.targetQueueSize),
        plan.slotsPerWorker,
        'one worker’s slots of backlog per replica',
      );
    }
  });
});
