import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { workerBuildInputs } from './worker-build-inputs';
import { buildIdOfImage, workerBuildFileName, workerBuildYaml, workerName } from './worker-build-manifests';
import { PRIORITIES } from '../common/task-queues';

const USAGE = `npm run k8s:worker-build -- --tag <tag> | --image <repository>:<tag> [--dir deploy/k8s] [--stdout]

Writes <dir>/workers-<tag>.yaml: for each task queue a worker Deployment and its KEDA ScaledObject for the build
whose id is the image tag, beside the builds already there (docs/deployment.md, "Worker builds on Kubernetes").
--tag takes the repository of the API's image in <dir>/api.yaml. Settings come from <dir>/configmap.yaml.`;

interface K8sObject {
  kind?: string;
  data?: Record<string, string>;
  spec?: { template?: { spec?: { containers?: Array<{ image?: string }> } } };
}

function objectOf(file: string, kind: string): K8sObject {
  const found = parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJS() as K8sObject | null)
    .find((object) => object?.kind === kind);
  if (!found) throw new Error(`${file} holds no ${kind}`);
  return found;
}

function imageFrom(values: { image?: string; tag?: string }, dir: string): string {
  if (values.image) return values.image;
  if (!values.tag) throw new Error(`--image or --tag is required\n\n${USAGE}`);
  const apiImage = objectOf(join(dir, 'api.yaml'), 'Deployment').spec?.template?.spec?.containers?.[0]?.image ?? '';
  const repository = apiImage.replace(/:[^:/@]+$/, '');
  if (!repository) throw new Error(`no image in ${join(dir, 'api.yaml')}: give --image`);
  return `${repository}:${values.tag}`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      image: { type: 'string' },
      tag: { type: 'string' },
      dir: { type: 'string', default: join('deploy', 'k8s') },
      stdout: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const image = imageFrom(values, values.dir);
  const buildId = buildIdOfImage(image);
  const configMap = objectOf(join(values.dir, 'configmap.yaml'), 'ConfigMap').data ?? {};
  const inputs = workerBuildInputs(configMap, image);
  const text = workerBuildYaml(inputs);
  if (values.stdout) {
    process.stdout.write(text);
    return;
  }
  const file = join(values.dir, workerBuildFileName(buildId));
  writeFileSync(file, text);
  const names = PRIORITIES.map((priority) => workerName(priority, buildId)).join(', ');
  console.log(`wrote ${file}: ${names}
next (docs/operations.md, "Deploying a workflow change"):
  kubectl apply -f ${file}        # beside the current build; it polls but takes no new job yet
  temporal worker deployment set-ramping-version --deployment-name ${inputs.deploymentName} --build-id ${buildId} --percentage 10
  temporal worker deployment set-current-version --deployment-name ${inputs.deploymentName} --build-id ${buildId}`);
}

try {
  main();
} catch (error: unknown) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
