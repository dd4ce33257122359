import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Silence } from '../../common/job-types/call/chunk-plan';

const execFileAsync = promisify(execFile);

/** Quieter than this for long enough is a pause between words or turns, not speech. */
const SILENCE_NOISE_DB = -35;
const SILENCE_MIN_SECONDS = 0.3;
/** ffmpeg decodes hours of audio in well under this on one core; the caller heartbeats meanwhile. */
const FFMPEG_TIMEOUT_MS = 20 * 60 * 1000;

/** The silences of a recording, by ffmpeg's silencedetect filter (decodes the whole file once). */
export async function detectSilences(path: string): Promise<Silence[]> {
  const { stderr } = await execFileAsync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', path, '-af', `silencedetect=noise=${SILENCE_NOISE_DB}dB:d=${SILENCE_MIN_SECONDS}`, '-f', 'null', '-'],
    { maxBuffer: 64 * 1024 * 1024, timeout: FFMPEG_TIMEOUT_MS },
  );
  const silences: Silence[] = [];
  let start: number | undefined;
  for (const line of stderr.split('\n')) {
    const began = /silence_start: (-?[\d.]+)/.exec(line);
    if (began) start = Math.max(0, Number(began[1]));
    const ended = /silence_end: ([\d.]+)/.exec(line);
    if (ended && start !== undefined) {
      silences.push({ start, end: Number(ended[1]) });
      start = undefined;
    }
  }
  return silences;
}

export type ChunkFormat = 'flac' | 'ogg';

/**
 * The span [start, end) of a recording as 16 kHz mono (what speech models hear; a tenth of a CD's bytes): FLAC,
 * lossless, or Ogg Opus at 32 kbit/s, a tenth of FLAC's size, for chunks FLAC would make too large. No tag of the
 * input is kept but `comment`, when given.
 */
export async function cutAudio(input: string, output: string, span: { start: number; end: number }, format: ChunkFormat, comment?: string): Promise<void> {
  const codec = format === 'flac' ? ['-c:a', 'flac'] : ['-c:a', 'libopus', '-b:a', '32k'];
  await execFileAsync(
    'ffmpeg',
    [
      '-v', 'error', '-y',
      '-ss', String(span.start), '-to', String(span.end), '-i', input,
      '-map', '0:a:0', '-map_metadata', '-1',
      ...(comment !== undefined ? ['-metadata', `comment=${comment}`] : []),
      '-ac', '1', '-ar', '16000', ...codec, output,
    ],
    { timeout: FFMPEG_TIMEOUT_MS },
  );
}
