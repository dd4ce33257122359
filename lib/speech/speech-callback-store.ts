import { createHash } from 'node:crypto';
import { type ObjectStore, readJsonIfPresent } from '../object-store';

/** Whose speech a record belongs to: its records live under this job, so its erasure and the sweep find them. */
export interface JobOfCallback {
  tenantId: string;
  jobId: string;
}

/** What a callback id stands for: the waiting attempt's task token, and whose transcript it waits on. */
export interface ArmedCallback {
  /** base64 of the activity attempt's task token; kept server-side, never in a URL. */
  taskToken: string;
  jobId: string;
  /** Absent only in a record an earlier build armed (under the flat keys, see LEGACY). */
  tenantId?: string;
}

/** A chunk's submission, kept under the caller's deterministic key so a retried attempt polls it, not pays again. */
export interface SpeechSubmission {
  transcriptId: string;
  callbackId: string;
}

export interface SpeechCallbackStore {
  arm(callbackId: string, armed: ArmedCallback & JobOfCallback): Promise<void>;
  armed(callbackId: string): Promise<ArmedCallback | undefined>;
  /**
   * Marks one armed token's callback used; false when it already was (a duplicate delivery). Temporal completes an
   * attempt once whatever races past this check: a second completion of the same token is refused as not found.
   */
  claim(callbackId: string, armed: ArmedCallback): Promise<boolean>;
  recordSubmission(job: JobOfCallback, submissionKey: string, submission: SpeechSubmission): Promise<void>;
  submission(job: JobOfCallback, submissionKey: string): Promise<SpeechSubmission | undefined>;
  /** The provider failed the submission: the next attempt submits anew instead of polling a failure forever. */
  forgetSubmission(job: JobOfCallback, submissionKey: string): Promise<void>;
}

const ROOT = 'speech-callbacks/';
const JOBS = `${ROOT}jobs/`;
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Where the records live. A job's own records sit under its prefix; the callback route knows only the callback id,
 * so `by-id/<id>.json` points it at the job (written after the armed record, so no pointer outlives what the job's
 * prefix shows).
 */
export const speechCallbackKeys = {
  root: ROOT,
  /** Every job's records are under this: the retention sweep lists it. */
  jobsRoot: JOBS,
  jobPrefix: (job: JobOfCallback): string => `${JOBS}${job.tenantId}/${encodeURIComponent(job.jobId)}/`,
  armed: (job: JobOfCallback, callbackId: string): string => `${speechCallbackKeys.jobPrefix(job)}armed/${callbackId}.json`,
  claim: (job: JobOfCallback, callbackId: string, taskToken: string): string => `${speechCallbackKeys.jobPrefix(job)}claims/${callbackId}/${digest(taskToken)}`,
  submission: (job: JobOfCallback, submissionKey: string): string => `${speechCallbackKeys.jobPrefix(job)}submissions/${digest(submissionKey)}.json`,
  byId: (callbackId: string): string => `${ROOT}by-id/${callbackId}.json`,
  /** The job a key under jobsRoot belongs to, or undefined for a key of another shape. */
  jobOf(key: string): JobOfCallback | undefined {
    if (!key.startsWith(JOBS)) return undefined;
    const [tenantId, jobId, kind] = key.slice(JOBS.length).split('/');
    return tenantId && jobId && kind ? { tenantId, jobId: decodeURIComponent(jobId) } : undefined;
  },
  /** The callback id an armed record's key names, or undefined for any other record. */
  callbackIdOfArmed(key: string): string | undefined {
    return /\/armed\/([^/]+)\.json$/.exec(key)?.[1];
  },
};

/**
 * The flat keys the build before this one wrote, read as a fallback: a callback it armed still completes, and a
 * retried attempt still finds a chunk it submitted (and polls it rather than paying again). Nothing writes them now.
 */
export const legacySpeechCallbackKeys = {
  armed: (callbackId: string) => `${ROOT}armed/${callbackId}.json`,
  claims: (callbackId: string) => `${ROOT}claims/${callbackId}/`,
  claim: (callbackId: string, taskToken: string) => `${ROOT}claims/${callbackId}/${digest(taskToken)}`,
  submissionsRoot: `${ROOT}submissions/`,
  submission: (submissionKey: string) => `${ROOT}submissions/${digest(submissionKey)}.json`,
};
const LEGACY = legacySpeechCallbackKeys;

/** In S3, which the API and every worker already share (Redis is optional in this product). */
export function speechCallbackStore(store: ObjectStore): SpeechCallbackStore {
  const json = { contentType: 'application/json' };
  const read = <T>(key: string) => readJsonIfPresent<T>(store, key);
  const jobOfArmed = (armed: ArmedCallback): JobOfCallback | undefined =>
    armed.tenantId === undefined ? undefined : { tenantId: armed.tenantId, jobId: armed.jobId };
  return {
    async arm(id, armed) {
      await store.put(speechCallbackKeys.armed(armed, id), JSON.stringify(armed), json);
      await store.put(speechCallbackKeys.byId(id), JSON.stringify({ tenantId: armed.tenantId, jobId: armed.jobId } satisfies JobOfCallback), json);
    },
    async armed(id) {
      const job = await read<JobOfCallback>(speechCallbackKeys.byId(id));
      return job ? read<ArmedCallback>(speechCallbackKeys.armed(job, id)) : read<ArmedCallback>(LEGACY.armed(id));
    },
    async claim(id, armed) {
      const job = jobOfArmed(armed);
      const key = job ? speechCallbackKeys.claim(job, id, armed.taskToken) : LEGACY.claim(id, armed.taskToken);
      if (await store.exists(key)) return false;
      await store.put(key, new Date().toISOString(), { contentType: 'text/plain' });
      return true;
    },
    recordSubmission: (job, key, submission) => store.put(speechCallbackKeys.submission(job, key), JSON.stringify(submission), json),
    async submission(job, key) {
      const current = await read<SpeechSubmission>(speechCallbackKeys.submission(job, key));
      if (current) return current;
      const legacy = await read<SpeechSubmission>(LEGACY.submission(key));
      if (!legacy) return undefined;
      // Moved under the job, so the job's erasure finds this transcript too; written before the old key goes.
      await store.put(speechCallbackKeys.submission(job, key), JSON.stringify(legacy), json);
      await store.deleteMany([LEGACY.submission(key)]);
      return legacy;
    },
    forgetSubmission: (job, key) => store.deleteMany([speechCallbackKeys.submission(job, key), LEGACY.submission(key)]),
  };
}
