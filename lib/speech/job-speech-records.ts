import type { ObjectStore } from '../object-store';
import { type JobOfCallback, type SpeechSubmission, speechCallbackKeys } from './speech-callback-store';

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
