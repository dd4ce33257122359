import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type ScriptSegment, scriptOfTag } from './script-tag';

const execFileAsync = promisify(execFile);

export interface AudioFacts {
  durationSeconds: number;
  /** The timed script a generated recording carries (script-tag.ts); none for anything else. */
  script?: ScriptSegment[];
}

/** Duration and comment tag by ffprobe; undefined when ffprobe cannot read the file as audio. */
export async function probeAudio(path: string): Promise<AudioFacts | undefined> {
  try {
    const { stdout } = await execFileAsync(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_type:format=duration:format_tags=comment', '-of', 'json', path],
      { maxBuffer: 16 * 1024 * 1024, timeout: 30_000 },
    );
    const probed = JSON.parse(stdout) as {
      streams?: Array<{ codec_type?: string }>;
      format?: { duration?: string; tags?: Record<string, string> };
    };
    const durationSeconds = Number(probed.format?.duration);
    if (probed.streams?.[0]?.codec_type !== 'audio' || !Number.isFinite(durationSeconds)) return undefined;
    // Tag names differ in case by container (Vorbis comments are upper case).
    const tags = probed.format?.tags ?? {};
    const comment = Object.entries(tags).find(([name]) => name.toLowerCase() === 'comment')?.[1];
    const script = scriptOfTag(comment);
    return { durationSeconds, ...(script ? { script } : {}) };
  } catch (error) {
    // A missing ffprobe is the machine's fault, not the upload's: a 500, never "invalid file format".
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ffprobe is not installed (local/stack/tools.ts installs it)', { cause: error });
    return undefined;
  }
}
