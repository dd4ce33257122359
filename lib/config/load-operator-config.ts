import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SettingsReader } from '../settings/read-settings';
import { fromEnv, type Env, type SettingSource } from '../settings/setting-sources';
import type { AuditStoreConfig, CapacityConfig, OperatorConfig } from './config-types';
import { deploymentArea, deploymentSetting } from './deployment-settings';
import { gatewayArea } from './gateway-settings';
import { gatewayConfigOf, objectEncryptionOf, readerFor } from './load-config';
import { s3Area } from './s3-settings';
import { temporalArea } from './temporal-settings';
import { workerArea } from './worker-settings';

/** Where `npm start` keeps the codec keys it generated (local/stack/local-codec-keys.ts). */
export const LOCAL_CODEC_KEYS_FILE = 'payload-codec-keys.json';

/**
 * The settings of the operator's Temporal commands (`npm run replay`): the Temporal connection and the codec keys,
 * none of the tenants, model key or API secrets the servers insist on. Against the local stack nothing need be set:
 * the address and namespace defaults are those `npm start` serves (temporal-dev.yaml), and without
 * PAYLOAD_CODEC_KEYS the keys are read from the data folder, where the stack keeps them.
 */
export function loadOperatorConfig(env: Env = process.env): OperatorConfig {
  const { reader } = operatorReader(env);
  const temporal = reader.readTable(temporalArea.settings);
  reader.finish();
  return { temporal };
}

/**
 * An operator's command that acts without the API (`npm run codec-key -- rotate`) writes its audit record itself:
 * the bucket and its encryption as the API has them, with the codec keys found as loadOperatorConfig finds them.
 */
export function loadAuditStoreConfig(env: Env = process.env): AuditStoreConfig {
  const { reader, deployment } = operatorReader(env);
  const temporal = reader.readTable(temporalArea.settings);
  const s3 = reader.readTable(s3Area.settings);
  const encryption = objectEncryptionOf(s3.encryption, deployment, temporal.payloadCodecKeys !== undefined, reader);
  reader.finish();
  return { temporal, s3: { ...s3, encryption } };
}

function operatorReader(env: Env) {
  const envSource = fromEnv(env);
  const dataDir = new SettingsReader([envSource]).read(deploymentArea.settings.dataDir);
  const stackKeys = readStackCodecKeys(dataDir);
  const keysSource: SettingSource = (_key, setting) =>
    setting === temporalArea.settings.payloadCodecKeys && stackKeys !== undefined
      ? { raw: stackKeys, label: join(dataDir, LOCAL_CODEC_KEYS_FILE) }
      : undefined;
  // Unset, SLOWLANE_ENV reads as production, where plaintext payloads would be a mistake: keys are then required.
  const deployment = new SettingsReader([envSource]).read(deploymentSetting) ?? 'production';
  const reader = new SettingsReader([keysSource, envSource], deployment);
  if (reader.isSet(deploymentSetting)) reader.read(deploymentSetting);
  return { reader, deployment };
}

function readStackCodecKeys(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, LOCAL_CODEC_KEYS_FILE), 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** `npm run capacity`: the gateway's limits and expectations and the workers' fixed slots; no connection, no secrets. */
export function loadCapacityConfig(env: Env = process.env): CapacityConfig {
  const reader = readerFor(env);
  const gateway = reader.readTable(gatewayArea.settings);
  const maxConcurrentActivities = reader.read(workerArea.settings.maxConcurrentActivities);
  reader.finish();
  return { gateway: gatewayConfigOf(gateway), worker: { maxConcurrentActivities } };
}
