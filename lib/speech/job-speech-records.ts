import { type ObjectStore, readJsonIfPresent } from '../object-store';
import { type ArmedCallback, type JobOfCallback, legacySpeechCallbackKeys, type SpeechSubmission, speechCallbackKeys } from './speech-callback-store';

/** What erasing a job's speech needs of the provider that holds its transcripts (the AssemblyAI gateway gives it). */
export interface SpeechTranscriptRemover {
  /** Succeeds for a transcript already gone (404): deleted is what the caller wants. */
  deleteTranscript(transcriptId: string): Promise<void>;
}

/**
 * Deletes every transcript the job submitted to the provider (a person's words), then the job's callback records
 * and their by-id pointers. The end of a job's erasure and the retention sweep both come here. Safe to run again:
 * a deleted transcript deletes again as a 404, and the records that name the transcripts go only after them.
 */
export async function deleteJobSpeechRecords(
  deps: { store: ObjectStore; transcripts: SpeechTranscriptRemover },
  job: JobOfCallback,
): Promise<{ transcripts: number }> {
  const keys: string[] = [];
  for await (const key of deps.store.list(speechCallbackKeys.jobPrefix(job))) keys.push(key);
  if (keys.length === 0) return { transcripts: 0 };
  const submissions = await Promise.all(
    keys.filter((key) => key.includes('/submissions/')).map(async (key) => JSON.parse((await deps.store.getBytes(key)).toString('utf8')) as SpeechSubmission),
  );
  const transcriptIds = new Set(submissions.map((submission) => submission.transcriptId));
  for (const id of transcriptIds) await deps.transcripts.deleteTranscript(id);
  const callbackIds = new Set([
    ...keys.flatMap((key) => speechCallbackKeys.callbackIdOfArmed(key) ?? []),
    ...submissions.map((submission) => submission.callbackId),
  ]);
  // The pointers go before the records that name them, so a run cut short finds them again.
  await deps.store.deleteMany([...callbackIds].map(speechCallbackKeys.byId));
  await deps.store.deleteMany(keys);
  return { transcripts: transcriptIds.size };
}

/**
 * One page of the submissions the build before recorded under its flat keys (`speech-callbacks/submissions/`), which
 * no job's prefix shows: each names its callback, whose armed record names the job. A submission of a job whose run is
 * closed or gone loses its transcript at the provider, then its records; one of a running job, or whose job is unknown
 * (no armed record), is kept. `after` and `next` are submission keys.
 */
export async function deleteLegacySpeechRecords(
  deps: { store: ObjectStore; transcripts: SpeechTranscriptRemover; stillRuns: (jobId: string) => Promise<boolean> },
  page: { after?: string; limit: number },
): Promise<{ jobs: number; transcripts: number; next?: string }> {
  const keys: string[] = [];
  for await (const key of deps.store.list(legacySpeechCallbackKeys.submissionsRoot, page.after ? { startAfter: page.after } : {})) {
    keys.push(key);
    if (keys.length === page.limit) break;
  }
  const jobs = new Set<string>();
  let transcripts = 0;
  for (const key of keys) {
    const submission = await readJsonIfPresent<SpeechSubmission>(deps.store, key);
    const armed = submission && (await readJsonIfPresent<ArmedCallback>(deps.store, legacySpeechCallbackKeys.armed(submission.callbackId)));
    if (!submission || !armed || (await deps.stillRuns(armed.jobId))) continue;
    await deps.transcripts.deleteTranscript(submission.transcriptId);
    transcripts++;
    jobs.add(armed.jobId);
    const claims: string[] = [];
    for await (const claim of deps.store.list(legacySpeechCallbackKeys.claims(submission.callbackId))) claims.push(claim);
    // The submission last: it is what finds the others again if this is cut short.
    await deps.store.deleteMany([...claims, legacySpeechCallbackKeys.armed(submission.callbackId)]);
    await deps.store.deleteMany([key]);
  }
  const next = keys.length === page.limit ? keys.at(-1) : undefined;
  return { jobs: jobs.size, transcripts, ...(next ? { next } : {}) };
}
