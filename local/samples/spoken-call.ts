import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ScriptSegment, scriptTagOf } from '../../common/job-types/call/script-tag';

const execFileAsync = promisify(execFile);

export interface CallLine {
  speaker: 'A' | 'B';
  text: string;
  /** How sure the simulator's transcriber is to be of the line (0..1), carried in the script tag; else it hears it clearly. */
  confidence?: number;
  /** How likely the simulator's Whisper is to think the line was silence (0..1), carried in the script tag. */
  noSpeechProb?: number;
}

/** Two voices that espeak-ng tells apart clearly: a US male and a British female. */
const VOICES: Record<CallLine['speaker'], string> = { A: 'en-us+m3', B: 'en-gb+f3' };
const SAMPLE_RATE = 16_000;
/** The pause between turns, long enough for a silence-based splitter to find. */
const TURN_GAP_SECONDS = 0.5;

export interface SpokenCall {
  path: string;
  script: ScriptSegment[];
  durationSeconds: number;
}

/**
 * A two-person call spoken by espeak-ng, joined by sox into one 16 kHz mono WAV with a pause between turns. With
 * `carryScript` the file's comment tag holds the timed script (written by ffmpeg), which the simulator answers
 * with; without it the simulator transcribes the audio itself.
 */
export async function speakCall(lines: readonly CallLine[], path: string, options: { carryScript: boolean }): Promise<SpokenCall> {
  const dir = await mkdtemp(join(tmpdir(), 'slowlane-call-'));
  try {
    const gap = join(dir, 'gap.wav');
    // No dither (-D), here and below: the same lines make the same bytes, so npm start finds its sample call again.
    await execFileAsync('sox', ['-D', '-n', '-r', String(SAMPLE_RATE), '-c', '1', '-b', '16', gap, 'trim', '0', String(TURN_GAP_SECONDS)]);
    const parts: string[] = [];
    const script: ScriptSegment[] = [];
    let at = 0;
    for (const [index, line] of lines.entries()) {
      const spoken = join(dir, `line-${index}.wav`);
      const part = join(dir, `part-${index}.wav`);
      await execFileAsync('espeak-ng', ['-v', VOICES[line.speaker], '-s', '150', '-w', spoken, line.text]);
      await execFileAsync('sox', ['-D', spoken, '-r', String(SAMPLE_RATE), '-c', '1', '-b', '16', part]);
      const seconds = Number((await execFileAsync('soxi', ['-D', part])).stdout.trim());
      script.push({
        start: round(at),
        end: round(at + seconds),
        text: line.text,
        speaker: line.speaker,
        ...(line.confidence !== undefined ? { confidence: line.confidence } : {}),
        ...(line.noSpeechProb !== undefined ? { noSpeechProb: line.noSpeechProb } : {}),
      });
      parts.push(part, gap);
      at += seconds + TURN_GAP_SECONDS;
    }
    const joined = options.carryScript ? join(dir, 'joined.wav') : path;
    await execFileAsync('sox', [...parts, joined]);
    if (options.carryScript) {
      await execFileAsync('ffmpeg', ['-v', 'error', '-y', '-i', joined, '-metadata', `comment=${scriptTagOf(script)}`, '-c', 'copy', path]);
    }
    return { path, script, durationSeconds: round(at) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
