import { createHash } from 'node:crypto';
import type { ObjectStore } from '../object-store';

/** What a callback id stands for: the waiting attempt's task token, and whose transcript it waits on. */
export interface ArmedCallback {
  /** base64 of the activity attempt's task token; kept server-side, never in a URL. */
  taskToken: string;
  jobId: string;
}

/** A chunk's submission, kept under the caller's deterministic key so a retried attempt polls it, not pays again. */
export interface SpeechSubmission {
  transcriptId: string;
  callbackId: string;
}

export interface SpeechCallbackStore {
  arm(callbackId: string, armed: ArmedCallback): Promise<void>;
  armed(callbackId: string): Promise<ArmedCallback | undefined>;
  /**
   * Marks one armed token's callback used; false when it already was (a duplicate delivery). Temporal completes an
   * attempt once whatever races past this check: a second completion of the same token is refused as not found.
   */
  claim(callbackId: string, taskToken: string): Promise<boolean>;
  recordSubmission(submissionKey: string, submission: SpeechSubmission): Promise<void>;
  submission(submissionKey: string): Promise<SpeechSubmission | undefined>;
  /** The provider failed the submission: the next attempt submits anew instead of polling a failure forever. */
  forgetSubmission(submissionKey: string): Promise<void>;
}

const PREFIX = 'speech-callbacks';
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/** In S3, which the API and every worker already share (Redis is optional in this product). */
export function speechCallbackStore(store: ObjectStore): SpeechCallbackStore {
  const json = { contentType: 'application/json' };
  const read = async <T>(key: string): Promise<T | undefined> =>
    (await store.exists(key)) ? (JSON.parse((await store.getBytes(key)).toString('utf8')) as T) : undefined;
  const armedKey = (id: string) => `${PREFIX}/armed/${id}.json`;
  const submissionKey = (key: string) => `${PREFIX}/submissions/${digest(key)}.json`;
  return {
    arm: (id, armed) => store.put(armedKey(id), JSON.stringify(armed), json),
    armed: (id) => read<ArmedCallback>(armedKey(id)),
    async claim(id, taskToken) {
      const key = `${PREFIX}/claims/${id}/${digest(taskToken)}`;
      if (await store.exists(key)) return false;
      await store.put(key, new Date().toISOString(), { contentType: 'text/plain' });
      return true;
    },
    recordSubmission: (key, submission) => store.put(submissionKey(key), JSON.stringify(submission), json),
    submission: (key) => read<SpeechSubmission>(submissionKey(key)),
    forgetSubmission: (key) => store.deleteMany([submissionKey(key)]),
  };
}
