import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type CallLine, type SpokenCall, speakCall } from './spoken-call';

export const SAMPLE_CALL_FILE = 'support-call-order-date.wav';

/** The demo's support call: a customer moves an order's delivery, and the agent takes on a follow-up. */
export const SAMPLE_CALL: readonly CallLine[] = [
  { speaker: 'A', text: 'Hello, thank you for calling Northwind support. My name is Sam. How can I help you today?' },
  { speaker: 'B', text: 'Hello Sam. I ordered six shelf labels last week, and I need them delivered on Friday instead of Monday.' },
  { speaker: 'A', text: 'Let me look at that order. Yes, I can move the delivery to Friday for you.' },
  { speaker: 'B', text: 'Thank you. Can you also send me the invoice again? I could not find it.' },
  { speaker: 'A', text: 'Of course. I will send you the invoice by email this afternoon.' },
  { speaker: 'B', text: 'Great, that is all I needed. Goodbye.' },
];

export const QUIET_CALL_FILE = 'support-call-bad-line.wav';

/**
 * The demo's call in review: the customer's lines are on a bad line, so its script tag has the simulator hear them
 * with low confidence; the call's confidence falls below CALL_REVIEW_CONFIDENCE (default 0.6) and the call waits
 * for a reviewer with a valid summary, its poorly heard lines marked beside the player.
 */
export const QUIET_CALL: readonly CallLine[] = [
  { speaker: 'A', text: 'Northwind support, this is Sam. How can I help?' },
  { speaker: 'B', text: 'Hi, I am calling about the blue desk lamps from order four one two. Two of them arrived broken.', confidence: 0.2 },
  { speaker: 'A', text: 'I am sorry to hear that. I will send two new lamps tomorrow.' },
  { speaker: 'B', text: 'Thank you, and please take the broken ones back when you deliver.', confidence: 0.15 },
];

/** The sample call spoken into `outDir`, carrying its script so the simulator's transcript reads cleanly. */
export async function writeSampleCall(outDir: string): Promise<SpokenCall> {
  await mkdir(outDir, { recursive: true });
  return speakCall(SAMPLE_CALL, join(outDir, SAMPLE_CALL_FILE), { carryScript: true });
}

/** The call heard poorly, spoken into `outDir`: the sample that waits in review. */
export async function writeQuietCall(outDir: string): Promise<SpokenCall> {
  await mkdir(outDir, { recursive: true });
  return speakCall(QUIET_CALL, join(outDir, QUIET_CALL_FILE), { carryScript: true });
}
