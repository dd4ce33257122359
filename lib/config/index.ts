/** The product's configuration: read once at start (loadConfig), typed, validated, documented from one table. */
export { ConfigError } from '../settings/config-error';
export type { CapacityConfig, CliConfig, Config, OperatorConfig } from './config-types';
export { loadCliConfig } from './load-cli-config';
export { loadConfig } from './load-config';
export { loadAuditStoreConfig, loadCapacityConfig, loadOperatorConfig } from './load-operator-config';
export type { ModelLimits } from './model-limits';
export type { ModelPrice } from './model-prices';
export type { Tenant } from './tenants';
