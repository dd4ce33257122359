import type { SettingsArea } from '../settings/setting';
import { apiArea } from './api-settings';
import { batchLaneArea } from './batch-lane-settings';
import { callArea } from './call-settings';
import { cliArea } from './cli-settings';
import { clientsArea } from './clients-settings';
import { deploymentArea } from './deployment-settings';
import { documentArea } from './document-settings';
import { embeddingsArea } from './embeddings-settings';
import { gatewayArea } from './gateway-settings';
import { jobsArea } from './jobs-settings';
import { ledgerArea } from './ledger-settings';
import { modelArea } from './model-settings';
import { observabilityArea } from './observability-settings';
import { peopleArea } from './people-settings';
import { pushArea } from './push-settings';
import { retentionArea } from './retention-settings';
import { s3Area } from './s3-settings';
import { speechArea } from './speech-settings';
import { spendArea } from './spend-settings';
import { temporalArea } from './temporal-settings';
import { workerArea } from './worker-settings';

/** Every product setting, area by area, in the order docs/configuration.md lists them. */
export const productAreas: readonly SettingsArea[] = [
  deploymentArea,
  temporalArea,
  s3Area,
  modelArea,
  gatewayArea,
  batchLaneArea,
  spendArea,
  embeddingsArea,
  speechArea,
  ledgerArea,
  apiArea,
  peopleArea,
  jobsArea,
  retentionArea,
  documentArea,
  callArea,
  workerArea,
  clientsArea,
  pushArea,
  observabilityArea,
  cliArea,
];
