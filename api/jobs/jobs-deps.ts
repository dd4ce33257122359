import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import type { ObjectStore } from '../../lib/object-store';

/** What every job use case is built from. */
export interface JobsDeps {
  client: Client;
  store: ObjectStore;
  config: Pick<Config, 'temporal' | 'jobs' | 'api' | 'tenants' | 'batchLane' | 'push'>;
}
