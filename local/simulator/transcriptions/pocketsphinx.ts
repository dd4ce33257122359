import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ScriptSegment } from '../../../common/job-types/call/script-tag';

const execFileAsync = promisify(execFile);

/** Tokens that are no words: utterance marks, silence and the model's noise fillers. */
const FILLERS = new Set(['<s>', '</s>', '<sil>', '[noise]', '[laugh]', '[breath]', '[cough]', '[um]', '[uh]', '[smack]']);

export class TranscriberTimeout extends Error {}

/**
 * Transcribes a 16 kHz mono WAV with pocketsphinx_continuous (`-time yes`; by default it loads Debian's
 * pocketsphinx-en-us model), one child process. Each utterance
 * (the words between `<s>` and `</s>`) becomes a segment; fillers and silences are dropped and alternate
 * pronunciations (`the(2)`) read as their word. Rough on synthetic voices, but real words from real audio.
 */
export async function runPocketsphinx(wavPath: string, timeoutMs: number): Promise<ScriptSegment[]> {
  try {
    const { stdout } = await execFileAsync('pocketsphinx_continuous', ['-infile', wavPath, '-time', 'yes', '-logfn', '/dev/null'], {
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
    });
    return segmentsOf(stdout);
  } catch (error) {
    if ((error as { killed?: boolean }).killed) throw new TranscriberTimeout(`pocketsphinx took longer than ${timeoutMs} ms`);
    throw error;
  }
}

/**
 * Parses `word start end posterior` lines into utterances; the hypothesis lines between them are ignored. An
 * utterance's confidence is the mean of its words' posterior probabilities (pocketsphinx prints them a hair above 1
 * at times, hence the clamp): low for what the small model guesses at, which synthetic voices often are.
 */
export function segmentsOf(output: string): ScriptSegment[] {
  const segments: ScriptSegment[] = [];
  let words: Array<{ word: string; start: number; end: number; posterior: number }> = [];
  const close = () => {
    const first = words[0];
    const last = words[words.length - 1];
    if (first && last) {
      const confidence = Math.round((words.reduce((sum, word) => sum + Math.min(1, word.posterior), 0) / words.length) * 1000) / 1000;
      segments.push({ start: first.start, end: last.end, text: words.map((word) => word.word).join(' '), confidence });
    }
    words = [];
  };
  for (const line of output.split('\n')) {
    const match = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!match) continue;
    const [, token = '', start, end, posterior] = match;
    if (token === '</s>') close();
    if (FILLERS.has(token.toLowerCase())) continue;
    words.push({ word: token.replace(/\(\d+\)$/, ''), start: Number(start), end: Number(end), posterior: Number(posterior) });
  }
  close();
  return segments;
}

/** ffmpeg to what pocketsphinx reads: 16 kHz, mono, 16-bit PCM WAV. */
export async function toRecogniserWav(inputPath: string, outputPath: string, timeoutMs: number): Promise<void> {
  await execFileAsync('ffmpeg', ['-v', 'error', '-y', '-i', inputPath, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', outputPath], {
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
}
