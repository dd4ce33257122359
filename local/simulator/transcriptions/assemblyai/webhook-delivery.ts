import type { SimulatorState } from '../../state';
import type { SimTranscript } from './async-transcripts';

/** AssemblyAI tries up to ten times while the receiver answers no 2xx; a few are enough to show the retry locally. */
const ATTEMPTS = 3;
const RETRY_GAP_MS = 500;
/** The receiver must answer within 10 s (AssemblyAI's webhook docs). */
const RECEIVER_TIMEOUT_MS = 10_000;

/**
 * The webhook of a finished transcript, `{transcript_id, status}` with the submitter's auth header, under the
 * run's switches: sent late (SIM_SPEECH_CALLBACK_DELAY_MS), more than once (SIM_SPEECH_CALLBACK_COPIES) or never
 * (SIM_SPEECH_CALLBACK_LOSS_RATE). Every attempt and its answer is kept in the stats for tests to read.
 */
export async function deliverWebhook(state: SimulatorState, transcript: SimTranscript, sleep: (ms: number) => Promise<void>): Promise<void> {
  const webhook = transcript.request.webhook;
  if (!webhook) return;
  const book = state.asyncTranscripts;
  const { speechCallbackLossRate: lossRate, speechCallbackDelayMs: delayMs, speechCallbackCopies: copies } = state.settings;
  if (lossRate >= 1 || (lossRate > 0 && state.faultRandom.next() < lossRate)) {
    book.stats.callbacksLost += 1;
    return;
  }
  await sleep(delayMs);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (webhook.authHeaderName && webhook.authHeaderValue !== undefined) headers[webhook.authHeaderName] = webhook.authHeaderValue;
  const body = JSON.stringify({ transcript_id: transcript.id, status: transcript.status });
  for (let copy = 0; copy < copies; copy += 1) {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const answer = await post(webhook.url, headers, body);
      book.stats.deliveries.push({ transcriptId: transcript.id, ...answer });
      if (answer.status >= 200 && answer.status < 300) break;
      if (attempt < ATTEMPTS) await sleep(RETRY_GAP_MS);
    }
  }
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(RECEIVER_TIMEOUT_MS) });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 0, body: error instanceof Error ? error.message : String(error) };
  }
}
