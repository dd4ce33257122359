import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A file ffprobe cannot read as audio: the upload is not a recording, whatever its first bytes said. */
export class NotAudioError extends Error {
  override readonly name = 'NotAudioError';
}

/** Reading the container's header is quick even for hours of audio; longer means something is wrong. */
const PROBE_TIMEOUT_MS = 30_000;

export interface AudioFacts {
  durationSeconds: number;
  /** The container's comment tag, when it has one. */
  comment?: string;
}

/** The duration of a recording in seconds (probeAudio). */
export async function probeAudioDuration(path: string): Promise<number> {
  return (await probeAudio(path)).durationSeconds;
}

/**
 * A recording's duration and comment tag, read by ffprobe (Debian's ffmpeg, installed by local/stack/tools.ts and
 * the image). Throws NotAudioError when the file holds no audio stream or no duration.
 */
export async function probeAudio(path: string): Promise<AudioFacts> {
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_type:stream_tags=comment:format=duration:format_tags=comment', '-of', 'json', path],
      // A generated call's script tag runs to hundreds of kilobytes for hours of audio.
      { maxBuffer: 16 * 1024 * 1024, timeout: PROBE_TIMEOUT_MS },
    ));
  } catch (error) {
    // A missing ffprobe is the machine's fault, not the upload's.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ffprobe is not installed (Debian package ffmpeg)', { cause: error });
    throw new NotAudioError(`ffprobe cannot read the file as audio: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`);
  }
  const probed = JSON.parse(stdout) as {
    streams?: Array<{ codec_type?: string; tags?: Record<string, string> }>;
    format?: { duration?: string; tags?: Record<string, string> };
  };
  const durationSeconds = Number(probed.format?.duration);
  if (probed.streams?.[0]?.codec_type !== 'audio' || !Number.isFinite(durationSeconds)) {
    throw new NotAudioError('the file holds no audio stream with a duration');
  }
  // Tag names differ in case by container (Vorbis comments are upper case), and Ogg keeps them on the stream.
  const tags = { ...probed.streams?.[0]?.tags, ...probed.format?.tags };
  const comment = Object.entries(tags).find(([name]) => name.toLowerCase() === 'comment')?.[1];
  return { durationSeconds, ...(comment !== undefined ? { comment } : {}) };
}
