import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import type { ObjectStore } from '../../lib/object-store';
import type { ProviderFileRemover } from '../../lib/provider-files/job-provider-files';
import type { SpeechTranscriptRemover } from '../../lib/speech/job-speech-records';

/** What every job use case is built from. */
export interface JobsDeps {
  client: Client;
  store: ObjectStore;
  /** The provider's Files API, where an erased job's uploaded scans are deleted (lib/provider-files/). */
  providerFiles?: ProviderFileRemover;
  /** The speech provider, where an erased call job's transcripts are deleted (lib/speech/job-speech-records.ts). */
  speechTranscripts?: SpeechTranscriptRemover;
  config: Pick<Config, 'temporal' | 'jobs' | 'api' | 'tenants' | 'batchLane' | 'push'>;
}
