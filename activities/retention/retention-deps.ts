import type { Client } from '@temporalio/client';
import type { AuditTrail } from '../../lib/audit/audit-trail';
import type { Config } from '../../lib/config';
import type { ObjectStore } from '../../lib/object-store';
import type { ProviderFileRemover } from '../../lib/provider-files/job-provider-files';
import type { SpeechTranscriptRemover } from '../../lib/speech/job-speech-records';
import type { Logger } from '../../lib/logger';

/** What the retention sweep's activities run with: the namespace it lists and deletes in, the bucket, the settings. */
export interface RetentionDeps {
  client: Client;
  store: ObjectStore;
  /** Where the erased jobs' uploaded scans are deleted, and the sweep's leftovers found. */
  providerFiles?: ProviderFileRemover;
  /** Where the erased and ended call jobs' transcripts are deleted (their records under `speech-callbacks/jobs/`). */
  speechTranscripts?: SpeechTranscriptRemover;
  tenants: ReadonlyArray<{ id: string }>;
  /** Read when a tenant's listing starts, so a test can shorten it between runs. */
  retention: Config['retention'];
  log: Logger;
  /** Each erasure is a `job.expire` record, written before it takes effect. */
  audit: AuditTrail;
  now?: () => Date;
}
