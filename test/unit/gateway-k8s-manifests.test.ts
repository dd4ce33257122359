import assert from '../support/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import { parseAllDocuments } from 'yaml';
import { PRIORITIES, taskQueueFor } from '../../common/task-queues';
import { planCapacity } from '../../gateway/capacity-plan';
import { capacityInputs } from '../../ops/capacity-inputs';

const DIR = join(__dirname, '..', '..', 'deploy', 'k8s');

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> };
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

  test('when the Deployments are read, then there is the API and one worker per queue, each with the shared settings', () => {
    const all = manifests();
    const config = find(all, 'ConfigMap', 'slowlane-config');
    find(all, 'Deployment', 'slowlane-api');
    for (const priority of PRIORITIES) {
      const [container] = containersOf(find(all, 'Deployment', `slowlane-worker-${priority}`));
      assert.ok(container);
      assert.equal(container.env?.find((variable) => variable.name === 'WORKER_PRIORITIES')?.value, priority);
      assert.ok(container.envFrom?.some((source) => source.configMapRef?.name === config.metadata?.name));
    }
  });

  test('when the ScaledObjects are read, then each scales its own queue’s worker on backlog, capped by the budget’s plan', () => {
    const all = manifests();
    const data = find(all, 'ConfigMap', 'slowlane-config').data ?? {};
    // Production refuses to load without these (the Secret holds them); they play no part in the plan.
    const config = localTestConfig({ ...data, ANTHROPIC_API_KEY: 'unused' });
    for (const priority of PRIORITIES) {
      const scaled = find(all, 'ScaledObject', `slowlane-worker-${priority}`);
      const spec = scaled.spec as {
        scaleTargetRef: { name: string };
        maxReplicaCount: number;
        triggers: Array<{ type: string; metadata: Record<string, string> }>;
      };
      assert.equal(spec.scaleTargetRef.name, `slowlane-worker-${priority}`);
      const [trigger] = spec.triggers;
      assert.equal(trigger?.type, 'temporal');
      assert.equal(trigger.metadata.taskQueue, taskQueueFor(priority, config.temporal.taskQueuePrefix));
      assert.equal(trigger.metadata.namespace, config.temporal.namespace);
      assert.equal(trigger.metadata.endpoint, config.temporal.address);

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
