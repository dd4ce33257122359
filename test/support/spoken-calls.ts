import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CallLine, type SpokenCall, speakCall } from '../../local/samples/spoken-call';

/** A short support call in two voices, with words common enough that pocketsphinx's small model knows them. */
export const SHORT_CALL: readonly CallLine[] = [
  { speaker: 'A', text: 'Hello, thank you for calling. How can I help you today?' },
  { speaker: 'B', text: 'Hello. I want to change the date of my order, please.' },
  { speaker: 'A', text: 'Yes, I can do that for you. What is the new date?' },
];

export interface CallFile extends SpokenCall {
  bytes: Buffer;
}

/** The call spoken into `dir`, with or without its script in the file's comment tag. */
export async function spokenCall(dir: string, name: string, carryScript: boolean): Promise<CallFile> {
  const call = await speakCall(SHORT_CALL, join(dir, name), { carryScript });
  return { ...call, bytes: await readFile(call.path) };
}

/** The lower-case words of a text, without punctuation. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z']+/g) ?? [];
}
