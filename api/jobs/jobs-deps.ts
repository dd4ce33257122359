import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import type { ObjectStore } from '../../lib/object-store';
import type { ProviderFileRemover } from '../../lib/provider-files/job-provider-files';

/** What every job use case is built from. */
export interface JobsDeps {
  client: Client;
  store: ObjectStore;
  /** The provider's Files API, where an erased job's uploaded scans are deleted (lib/provider-files/). */
  providerFiles?: ProviderFileRemover;
  config: Pick<Config, 'temporal' | 'jobs' | 'api' | 'tenants' | 'batchLane' | 'push'>;
}
