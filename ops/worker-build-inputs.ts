import { planCapacity } from '../gateway/capacity-plan';
import { gatewayConfigOf, readerFor } from '../lib/config/load-config';
import { gatewayArea } from '../lib/config/gateway-settings';
import { temporalArea } from '../lib/config/temporal-settings';
import { workerArea } from '../lib/config/worker-settings';
import { capacityInputs } from './capacity-inputs';
import { WORKER_PLAN, type WorkerBuildInputs } from './worker-build-manifests';

/**
 * A build's inputs from the ConfigMap every process reads (deploy/k8s/configmap.yaml): where the KEDA scaler finds
 * Temporal, the deployment name the workers report, and the replica cap and per-replica backlog of the capacity
 * plan (`npm run capacity` with the same numbers). Read with the product's own setting tables, so a value the
 * workers would refuse stops the render too; secrets are not needed for any of it.
 */
export function workerBuildInputs(configMap: Readonly<Record<string, string>>, image: string): WorkerBuildInputs {
  const reader = readerFor(configMap);
  const { address, namespace, taskQueuePrefix } = temporalArea.settings;
  const temporal = {
    address: reader.read(address),
    namespace: reader.read(namespace),
    taskQueuePrefix: reader.read(taskQueuePrefix),
  };
  const deploymentName = reader.read(workerArea.settings.deploymentName);
  const versioning = reader.read(workerArea.settings.versioning);
  if (!versioning) reader.report('WORKER_VERSIONING is off in the ConfigMap: per-build worker Deployments need it on');
  const gateway = gatewayConfigOf(reader.readTable(gatewayArea.settings));
  reader.finish();
  const plan = planCapacity(capacityInputs({ gateway }, WORKER_PLAN));
  return { image, temporal, deploymentName, plan };
}
