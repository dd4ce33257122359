import type { Links } from '../../common/api-contract/job-parts';
import { parseJobId } from '../../common/job-id';
import { jobTypeNamed } from '../../common/job-types/registry';
import type { Config } from '../../lib/config';

/** Where a client finds a job and everything about it, the Temporal Web UI included. */
export function jobLinks(config: Pick<Config, 'temporal' | 'api'>, jobId: string): Links {
  const base = `${config.api.publicUrl}/jobs/${encodeURIComponent(jobId)}`;
  const jobType = parseJobId(jobId)?.jobType;
  // Only a type that takes an upload has a document; a link that always answers 404 would be a broken promise.
  const takesFile = jobType !== undefined && jobTypeNamed(jobType)?.input.kind === 'file';
  return {
    self: base,
    events: `${base}/events`,
    review: `${base}/review`,
    ...(takesFile ? { document: `${base}/document` } : {}),
    temporal: `${config.temporal.webUiUrl}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(jobId)}`,
  };
}
