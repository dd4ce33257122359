import { readFile } from 'node:fs/promises';
import { UsageError } from './arguments';
import type { BodySource } from './arguments';

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A request body the user wrote, parsed here so that a missing file or a JSON typo is told apart from what the API
 * refuses: it is a usage error (exit 2) naming the file, and nothing is sent.
 */
export async function readJsonBody(source: BodySource): Promise<unknown> {
  const name = source.from === 'stdin' ? 'stdin' : source.path;
  let text: string;
  try {
    text = source.from === 'stdin' ? await readStdin() : await readFile(source.path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(`${name}: ${code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)}`);
  }
  if (text.trim() === '') throw new UsageError(`${name}: empty; expected a JSON object`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${name}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
