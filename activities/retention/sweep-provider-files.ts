import { WorkflowNotFoundError } from '@temporalio/client';
import type { ProviderFilesSweepPage } from '../../common/retention';
import type { ObjectStore } from '../../lib/object-store';
import { deleteJobProviderFiles, providerFileKeys } from '../../lib/provider-files/job-provider-files';
import { deleteJobSpeechRecords, deleteLegacySpeechRecords } from '../../lib/speech/job-speech-records';
import { speechCallbackKeys } from '../../lib/speech/speech-callback-store';
import { withHeartbeats } from '../heartbeat';
import type { RetentionDeps } from './retention-deps';

interface JobRef {
  tenantId: string;
  jobId: string;
}

/**
 * The provider-side leftovers of jobs that ended without deleting them (a cleanup that failed, a worker that died in
 * it, a job terminated by hand, a call job, which keeps its transcripts at the speech provider until erased): first
 * the jobs under `provider-files/` whose run is closed or gone lose their uploaded scans, then those under
 * `speech-callbacks/jobs/` their transcripts and callback records, then those the build before kept under flat
 * keys; a page per call. A running job keeps them all: its steps still name them.
 *
 * One activity and one cursor for all, so the sweep's workflow stays as it is: the cursor is the last record key
 * looked at, and `provider-files/` sorts before `speech-callbacks/jobs/` before `speech-callbacks/submissions/`,
 * so the key says which part to go on with.
 */
export function createSweepProviderFiles(deps: RetentionDeps) {
  return async function sweepProviderFiles(input: { after?: string; limit: number }): Promise<ProviderFilesSweepPage> {
    return withHeartbeats(async () => {
      const { after, limit } = input;
      const part = after === undefined || after.startsWith(providerFileKeys.root) ? 'scans' : after.startsWith(speechCallbackKeys.jobsRoot) ? 'speech' : 'legacySpeech';
      let page: ProviderFilesSweepPage = { jobs: 0, files: 0 };
      if (part === 'scans' && deps.providerFiles) {
        const files = deps.providerFiles;
        const scans = await sweepEndedJobs(deps, { root: providerFileKeys.root, jobOf: providerFileKeys.jobOf, after, limit }, (job) =>
          deleteJobProviderFiles({ store: deps.store, files }, job).then(({ deleted }) => deleted),
        );
        page = { jobs: scans.jobs, files: scans.deleted, ...(scans.next ? { next: scans.next } : {}) };
        if (scans.jobs > 0) deps.log.info({ jobs: scans.jobs, files: scans.deleted }, 'retention sweep deleted the uploaded scans of ended jobs');
        if (page.next) return page;
      }
      const transcripts = deps.speechTranscripts;
      if (!transcripts) return page;
      let speech: { jobs: number; deleted: number; next?: string } = { jobs: 0, deleted: 0 };
      if (part !== 'legacySpeech') {
        speech = await sweepEndedJobs(
          deps,
          { root: speechCallbackKeys.jobsRoot, jobOf: speechCallbackKeys.jobOf, after: part === 'speech' ? after : undefined, limit },
          (job) => deleteJobSpeechRecords({ store: deps.store, transcripts }, job).then((deleted) => deleted.transcripts),
        );
      }
      // Then the flat records of the build before, which no job's prefix shows (lib/speech/job-speech-records.ts).
      const legacy = speech.next
        ? undefined
        : await deleteLegacySpeechRecords({ store: deps.store, transcripts, stillRuns: (jobId) => stillRuns(deps, jobId) }, { ...(part === 'legacySpeech' && after ? { after } : {}), limit });
      const jobs = speech.jobs + (legacy?.jobs ?? 0);
      const deleted = speech.deleted + (legacy?.transcripts ?? 0);
      if (jobs > 0) deps.log.info({ jobs, transcripts: deleted }, 'retention sweep deleted the speech transcripts and callback records of ended jobs');
      const next = speech.next ?? legacy?.next;
      return { jobs: page.jobs + jobs, files: page.files, transcripts: deleted, ...(next ? { next } : {}) };
    });
  };
}

/** One page of jobs with records under `root`: those whose run is closed or gone go through `clean`. */
async function sweepEndedJobs(
  deps: Pick<RetentionDeps, 'client' | 'store'>,
  listing: { root: string; jobOf: (key: string) => JobRef | undefined; after: string | undefined; limit: number },
  clean: (job: JobRef) => Promise<number>,
): Promise<{ jobs: number; deleted: number; next?: string }> {
  const jobs = await jobsPage(deps.store, listing);
  let swept = 0;
  let deleted = 0;
  for (const job of jobs) {
    if (await stillRuns(deps, job.jobId)) continue;
    deleted += await clean(job);
    swept++;
  }
  const next = jobs.length === listing.limit ? jobs.at(-1)?.lastKey : undefined;
  return { jobs: swept, deleted, ...(next ? { next } : {}) };
}

/** Up to `limit` jobs in key order after `after`, each with the last of its keys (where the next page starts). */
async function jobsPage(
  store: ObjectStore,
  listing: { root: string; jobOf: (key: string) => JobRef | undefined; after: string | undefined; limit: number },
): Promise<Array<JobRef & { lastKey: string }>> {
  const jobs: Array<JobRef & { lastKey: string }> = [];
  for await (const key of store.list(listing.root, listing.after ? { startAfter: listing.after } : {})) {
    const job = listing.jobOf(key);
    if (!job) continue;
    const last = jobs.at(-1);
    if (last && last.tenantId === job.tenantId && last.jobId === job.jobId) {
      last.lastKey = key;
      continue;
    }
    if (jobs.length === listing.limit) break;
    jobs.push({ ...job, lastKey: key });
  }
  return jobs;
}

async function stillRuns(deps: Pick<RetentionDeps, 'client'>, jobId: string): Promise<boolean> {
  try {
    return (await deps.client.workflow.getHandle(jobId).describe()).status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
