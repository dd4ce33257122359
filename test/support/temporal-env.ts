import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../common/search-attributes';
import { localPaths } from '../../local/stack/local-paths';
import { ensureGoTool, TEMPORAL_CLI } from '../../local/stack/tools';
import { testEnv } from './test-env';
import { testDataConverter } from './test-codec';

/**
 * A Temporal server for a test file: the test stack's server when `npm test` started one (fast), otherwise a
 * fresh dev server from the cached CLI binary, so a single file also runs alone with `npx jest <file>`.
 */
export async function createTemporalTestEnv(): Promise<TestWorkflowEnvironment> {
  const { temporalAddress, temporalNamespace } = testEnv();
  if (temporalAddress) {
    return TestWorkflowEnvironment.createFromExistingServer({
      address: temporalAddress,
      namespace: temporalNamespace,
      client: { dataConverter: testDataConverter() },
    });
  }
  const path = await ensureGoTool(TEMPORAL_CLI, localPaths().toolCacheDir, process.env.PATH ?? '', () => undefined);
  return TestWorkflowEnvironment.createLocal({
    client: { dataConverter: testDataConverter() },
    server: {
      executable: { type: 'existing-path', path },
      namespace: 'default',
      searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
      log: { format: 'json', level: 'error' },
    },
  });
}
