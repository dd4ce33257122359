import { stringify } from 'yaml';
import { PRIORITIES, type Priority, taskQueueFor } from '../common/task-queues';
import type { CapacityPlan } from '../gateway/capacity-plan';

/**
 * The Kubernetes objects of one worker build: per queue a Deployment and the KEDA ScaledObject that scales it on
 * that build's own backlog. With Worker Deployment Versioning a job is pinned to the build that started it, so a
 * build's pods must outlive a rollout: every build gets Deployments of its own, named and labelled by its build id,
 * instead of one Deployment per queue rolled in place (docs/deployment.md, "Worker builds on Kubernetes").
 */

export const K8S_NAMESPACE = 'slowlane';
/** The label every object of one build carries: `kubectl delete … -l slowlane.dev/build-id=<id>` retires it. */
export const BUILD_ID_LABEL = 'slowlane.dev/build-id';

/** What the capacity plan assumes of one worker; written as annotations so the plan can be recomputed from them. */
export const WORKER_PLAN = { cpuMsPerJob: 300, coresPerWorker: 0.5 } as const;
/** WORKER_SHUTDOWN_GRACE inside terminationGracePeriodSeconds, leaving time to close the connection and flush. */
export const SHUTDOWN_GRACE_SECONDS = 45;
export const TERMINATION_GRACE_SECONDS = 60;

/** Per queue: interactive keeps a pod up so the first job never waits for one; bulk scales to zero. */
const MIN_REPLICAS: Record<Priority, number> = { interactive: 1, bulk: 0 };

export interface WorkerBuildInputs {
  /** The image with its tag; the tag is the build id. */
  image: string;
  temporal: { address: string; namespace: string; taskQueuePrefix: string };
  /** WORKER_DEPLOYMENT_NAME: the Worker Deployment the builds are versions of. */
  deploymentName: string;
  plan: Pick<CapacityPlan, 'workersWorthRunning' | 'slotsPerWorker'>;
}

/** A tag Docker accepts that is also a Kubernetes label value (≤ 63, alphanumeric at both ends). */
const TAG = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$/;
const LONGEST_NAME_PREFIX = `slowlane-worker-${PRIORITIES.reduce((a, b) => (a.length >= b.length ? a : b))}-`;

/** The build id of an image: its tag, which must be there (never `latest`: a build id names one exact build). */
export function buildIdOfImage(image: string): string {
  // repository[:port]/path:tag[@digest]: the tag follows the last ':' after the last '/'.
  const [, tag] = /:([^:/]+)$/.exec(image.split('@')[0] ?? '') ?? [];
  if (!tag) throw new Error(`${image} has no tag: a worker build is named by its image tag`);
  if (tag === 'latest') throw new Error(`${image}: "latest" names no one build; tag the image with its version`);
  if (!TAG.test(tag) || tag.startsWith('__'))
    throw new Error(`${image}: the tag must be 1-63 letters, digits, ".", "_" or "-", alphanumeric at both ends`);
  if (LONGEST_NAME_PREFIX.length + k8sNameOfBuild(tag).length > 63)
    throw new Error(`${image}: the tag is too long for the Deployment names (${LONGEST_NAME_PREFIX}<tag> ≤ 63)`);
  return tag;
}

/** The build id as it appears in object names (DNS labels): lower case, `.` and `_` as `-` (0.1.0 → 0-1-0). */
export function k8sNameOfBuild(buildId: string): string {
  return buildId.toLowerCase().replace(/[._]/g, '-');
}

export function workerName(priority: Priority, buildId: string): string {
  return `slowlane-worker-${priority}-${k8sNameOfBuild(buildId)}`;
}

/** The file `npm run k8s:worker-build` writes a build to, beside the other manifests. */
export function workerBuildFileName(buildId: string): string {
  return `workers-${k8sNameOfBuild(buildId)}.yaml`;
}

export function workerBuildManifests(inputs: WorkerBuildInputs): object[] {
  const buildId = buildIdOfImage(inputs.image);
  return PRIORITIES.flatMap((priority) => [deployment(inputs, priority, buildId), scaledObject(inputs, priority, buildId)]);
}

function labelsOf(priority: Priority, buildId: string) {
  return { app: 'slowlane-worker', queue: priority, [BUILD_ID_LABEL]: buildId };
}

function deployment(inputs: WorkerBuildInputs, priority: Priority, buildId: string): object {
  const labels = labelsOf(priority, buildId);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: workerName(priority, buildId), namespace: K8S_NAMESPACE, labels },
    spec: {
      // One pod at first, so the version exists on the server before KEDA asks for its backlog; KEDA owns it after.
      replicas: 1,
      // The build id is in the selector: two builds' Deployments never adopt each other's pods.
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
          containers: [
            {
              name: 'worker',
              image: inputs.image,
              args: ['node', 'dist/workers/main.js'],
              securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false },
              env: [
                { name: 'WORKER_PRIORITIES', value: priority },
                { name: 'WORKER_BUILD_ID', value: buildId },
                { name: 'WORKER_SHUTDOWN_GRACE', value: `${SHUTDOWN_GRACE_SECONDS}s` },
              ],
              envFrom: [{ configMapRef: { name: 'slowlane-config' } }, { secretRef: { name: 'slowlane-secrets' } }],
              ports: [{ name: 'metrics', containerPort: 9465 }],
              resources: {
                requests: { cpu: `${WORKER_PLAN.coresPerWorker * 1000}m`, memory: '512Mi' },
                limits: { memory: '1Gi' },
              },
            },
          ],
        },
      },
    },
  };
}

function scaledObject(inputs: WorkerBuildInputs, priority: Priority, buildId: string): object {
  return {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: {
      name: workerName(priority, buildId),
      namespace: K8S_NAMESPACE,
      labels: labelsOf(priority, buildId),
      annotations: {
        'slowlane.dev/plan-cpu-ms-per-job': String(WORKER_PLAN.cpuMsPerJob),
        'slowlane.dev/plan-cores-per-worker': String(WORKER_PLAN.coresPerWorker),
      },
    },
    spec: {
      scaleTargetRef: { name: workerName(priority, buildId) },
      minReplicaCount: MIN_REPLICAS[priority],
      maxReplicaCount: inputs.plan.workersWorthRunning,
      pollingInterval: 15,
      // Backlog-based activation ignores in-flight work: wait before scaling down.
      cooldownPeriod: 300,
      triggers: [
        {
          type: 'temporal',
          authenticationRef: { name: 'slowlane-temporal' },
          metadata: {
            endpoint: inputs.temporal.address,
            namespace: inputs.temporal.namespace,
            taskQueue: taskQueueFor(priority, inputs.temporal.taskQueuePrefix),
            queueTypes: 'workflow,activity',
            // KEDA ≥ 2.20: this version's backlog (DescribeWorkerDeploymentVersion), not the unversioned queue's.
            workerDeploymentName: inputs.deploymentName,
            workerDeploymentBuildId: buildId,
            targetQueueSize: String(inputs.plan.slotsPerWorker),
            activationTargetQueueSize: '0',
          },
        },
      ],
    },
  };
}

/** The file's text: a header saying where it came from and how the build is retired, then the objects. */
export function workerBuildYaml(inputs: WorkerBuildInputs): string {
  const buildId = buildIdOfImage(inputs.image);
  const header = [
    `Worker build ${buildId} (Worker Deployment "${inputs.deploymentName}", build id = the image tag), written by`,
    `  npm run k8s:worker-build -- --image ${inputs.image}`,
    'Edit the generator (ops/worker-build-manifests.ts) or the ConfigMap and render again, not this file.',
    `maxReplicaCount ${inputs.plan.workersWorthRunning} and targetQueueSize ${inputs.plan.slotsPerWorker} are the capacity plan of the ConfigMap's GATEWAY_* numbers`,
    'and the annotations (`npm run capacity`, docs/gateway.md "Autoscaling"); every build is capped alike, and the',
    "fleet's token budget in Redis paces all builds together while two run side by side.",
    'Keep this build running until it is no longer current and',
    `  temporal worker deployment describe-version --deployment-name ${inputs.deploymentName} --build-id ${buildId}`,
    'shows no running jobs, then retire it (docs/operations.md, "Deploying a workflow change"):',
    `  kubectl -n ${K8S_NAMESPACE} delete deployment,scaledobject -l ${BUILD_ID_LABEL}=${buildId} && git rm <this file>`,
  ].map((line) => `# ${line}`);
  // YAML 1.1 quoting, as kubectl reads it: a tag like 1.0 or on stays a string; no anchors for repeated labels.
  const options = { version: '1.1', aliasDuplicateObjects: false, lineWidth: 0 } as const;
  const documents = workerBuildManifests(inputs).map((object) => stringify(object, options));
  return `${header.join('\n')}\n${documents.join('---\n')}`;
}
