import type { Links } from '../../common/api-contract/job-parts';
import type { Config } from '../../lib/config';

/** Where a client finds a job and everything about it, the Temporal Web UI included. */
export function jobLinks(config: Pick<Config, 'temporal' | 'api'>, jobId: string): Links {
  const base = `${config.api.publicUrl}/jobs/${encodeURIComponent(jobId)}`;
  return {
    self: base,
    events: `${base}/events`,
    review: `${base}/review`,
    document: `${base}/document`,
    temporal: `${config.temporal.webUiUrl}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(jobId)}`,
  };
}
