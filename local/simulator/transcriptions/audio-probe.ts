import { NotAudioError, probeAudio as probeRecording } from '../../../lib/audio/probe-audio';
import { type ScriptSegment, scriptOfTag } from '../../../common/job-types/call/script-tag';

export interface AudioFacts {
  durationSeconds: number;
  /** The timed script a generated recording carries (common/job-types/call/script-tag.ts); none for anything else. */
  script?: ScriptSegment[];
}

/** Duration and script by ffprobe, as the product reads them; undefined when ffprobe cannot read the file as audio. */
export async function probeAudio(path: string): Promise<AudioFacts | undefined> {
  try {
    const facts = await probeRecording(path);
    const script = scriptOfTag(facts.comment);
    return { durationSeconds: facts.durationSeconds, ...(script ? { script } : {}) };
  } catch (error) {
    // A missing ffprobe is the machine's fault, not the upload's (probeRecording throws that as a plain Error).
    if (error instanceof NotAudioError) return undefined;
    throw error;
  }
}
