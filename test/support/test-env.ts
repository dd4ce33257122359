import type { PostgresAddress } from '../../local/stack/postgres-server';
import type { TemporalKind } from '../../local/stack/postgres-temporal';

/**
 * What `npm test` tells the tests about the stack it started (local/stack/test-runner.ts sets these). Tests read
 * them here and nowhere else; each is optional so a test file can also run alone.
 */
export interface TestStackEnv {
  temporalAddress?: string;
  temporalNamespace: string;
  apiUrl?: string;
  simulatorUrl?: string;
  ledgerUrl?: string;
  s3Endpoint?: string;
  dataDir?: string;
  sharedInvoicesDir: string;
  artifactsDir: string;
  /** The environment the stack's worker and API run with; tests start extra API processes with it. */
  productEnv?: Record<string, string>;
  /** Prometheus endpoints of the stack's processes by name (api, worker-interactive, worker-bulk). */
  metricsUrls: Record<string, string>;
  /** Which Temporal the stack runs (the `cluster` tier runs the cluster on PostgreSQL); fault tests start the same kind. */
  temporalKind: TemporalKind;
  /** The cluster's PostgreSQL, where fault tests create their own cluster's databases. */
  postgres?: PostgresAddress;
}

export function testEnv(env: Record<string, string | undefined> = process.env): TestStackEnv {
  const root = new URL('../..', `file://${__dirname}/`).pathname;
  return {
    temporalAddress: env.SLOWLANE_TEST_TEMPORAL_ADDRESS,
    temporalNamespace: env.SLOWLANE_TEST_TEMPORAL_NAMESPACE ?? 'default',
    apiUrl: env.SLOWLANE_TEST_API_URL,
    simulatorUrl: env.SLOWLANE_TEST_SIMULATOR_URL,
    ledgerUrl: env.SLOWLANE_TEST_LEDGER_URL,
    s3Endpoint: env.SLOWLANE_TEST_S3_ENDPOINT,
    dataDir: env.SLOWLANE_TEST_DATA_DIR,
    sharedInvoicesDir: env.SLOWLANE_SHARED_INVOICES ?? `${root}../shared/invoices`,
    artifactsDir: env.SLOWLANE_TEST_ARTIFACTS ?? `${root}test-artifacts`,
    ...(env.SLOWLANE_TEST_PRODUCT_ENV ? { productEnv: JSON.parse(env.SLOWLANE_TEST_PRODUCT_ENV) as Record<string, string> } : {}),
    metricsUrls: JSON.parse(env.SLOWLANE_TEST_METRICS_URLS ?? '{}') as Record<string, string>,
    temporalKind: env.SLOWLANE_TEST_TEMPORAL_KIND === 'cluster' ? 'cluster' : 'dev',
    ...(env.SLOWLANE_TEST_POSTGRES ? { postgres: JSON.parse(env.SLOWLANE_TEST_POSTGRES) as PostgresAddress } : {}),
  };
}
