import type { CallTranscript as ApiCallTranscript } from '../../common/api-contract/call-transcript';
import type { Job } from '../../common/api-contract/job';
import type { CallResult } from '../../common/job-types/call/definition';
import type { CallTranscript } from '../../common/job-types/call/transcript';
import type { ObjectStore } from '../../lib/object-store';

/** The words of a finished call job's transcript, read from S3 (unsealed by the store); empty when it has none. */
export async function transcriptTextOf(store: ObjectStore, job: Job): Promise<string> {
  const result = job.result as CallResult | undefined;
  if (!result?.transcriptKey) return '';
  const transcript = JSON.parse((await store.getBytes(result.transcriptKey)).toString('utf8')) as CallTranscript;
  return transcript.text;
}

/** The words of a call waiting in review (heard with low confidence: pocketsphinx's often is), through the API. */
export async function transcriptTextInReview(apiUrl: string, apiKey: string, jobId: string): Promise<string> {
  const response = await fetch(`${apiUrl}/jobs/${encodeURIComponent(jobId)}/transcript`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (!response.ok) return '';
  return ((await response.json()) as ApiCallTranscript).segments.map((segment) => segment.text).join(' ');
}
