import { type Config, loadConfig } from '../../lib/config';
import { generateLocalSecrets, LOCAL_MODE_ENV, LOCAL_PUSH_ENV, type LocalPerson, type LocalSecrets, type LocalTenant, localSecretsEnv } from '../../local/stack/local-secrets';
import { TEST_TENANT_IDS } from '../../local/stack/test-tenants';
import { testEnv } from './test-env';

/** A tenant of the test stack, with its first reviewer's token at hand (most tests need one reviewer). */
export interface TestTenant extends LocalTenant {
  reviewer: LocalPerson;
  reviewerToken: string;
}

/**
 * The credentials the tests use: those `npm test` generated for its stack (passed in SLOWLANE_TEST_PRODUCT_ENV), or,
 * for a file run without a stack, a set generated once for this file.
 */
function testSecrets(): LocalSecrets {
  const env = testEnv().productEnv;
  if (env?.SLOWLANE_TENANTS && env.SLOWLANE_OPERATORS && env.API_PAGE_TOKEN_SECRET) {
    return {
      tenants: JSON.parse(env.SLOWLANE_TENANTS) as LocalTenant[],
      operators: JSON.parse(env.SLOWLANE_OPERATORS) as LocalPerson[],
      pageTokenSecret: env.API_PAGE_TOKEN_SECRET,
      ...(env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { vapid: { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } } : {}),
    };
  }
  return generateLocalSecrets(TEST_TENANT_IDS);
}

export const TEST_SECRETS = testSecrets();

export function testTenant(id: string): TestTenant {
  const tenant = TEST_SECRETS.tenants.find((candidate) => candidate.id === id);
  const reviewer = tenant?.reviewers[0];
  if (!tenant || !reviewer) throw new Error(`no test tenant "${id}" with a reviewer`);
  return { ...tenant, reviewer, reviewerToken: reviewer.token };
}

export const TEST_OPERATOR = TEST_SECRETS.operators[0] as LocalPerson;

/**
 * A public payload key for tests only: what a file run alone (`npx jest`) and `npm run record-histories` encrypt
 * with, so histories recorded under it replay in every later run (test/support/test-codec.ts). Never a real key.
 */
export const RECORDED_TEST_KEYS = { 'test-recorded': Buffer.alloc(32, 7).toString('base64') };

/** A local-mode environment with the test credentials, as `npm test` gives its stack, plus `overrides`. */
export function localTestEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { ...LOCAL_MODE_ENV, ...LOCAL_PUSH_ENV, ...localSecretsEnv(TEST_SECRETS), PAYLOAD_CODEC_KEYS: JSON.stringify(RECORDED_TEST_KEYS), ...overrides };
}

/** loadConfig on localTestEnv(overrides): what a unit test that needs a whole config starts from. */
export function localTestConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(localTestEnv(overrides));
}
