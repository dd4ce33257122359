import type { JobStart } from '../../common/job';
import type { Config } from '../../lib/config';

/**
 * What makes a job push its notable events to Web Push subscriptions (docs/clients.md, "Web Push"): `push` in its
 * input when the deployment pushes. Without it a job starts no push delivery, so a deployment without Web Push pays
 * nothing per job. A submitted job and a schedule's runs get it alike.
 */
export function pushTerms(config: Pick<Config, 'push'>): Pick<JobStart, 'push'> {
  return config.push.enabled ? { push: true } : {};
}
