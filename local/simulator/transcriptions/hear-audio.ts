import { join } from 'node:path';
import type { Fault } from '../faults';
import type { SimulatorState } from '../state';
import type { AudioFacts } from './audio-probe';
import { runPocketsphinx, toRecogniserWav, TranscriberTimeout } from './pocketsphinx';
import type { ScriptSegment } from '../../../common/job-types/call/script-tag';

/** Extra wait of a `slow` fault that names no delay, as for the Messages API. */
const DEFAULT_SLOW_DELAY_MS = 3000;

export type Hearing = { ok: true; segments: ScriptSegment[] } | { ok: false; message: string };

/**
 * The one transcription engine of both provider shapes: the recording's own script when it carries one
 * (common/job-types/call/script-tag.ts), after a latency that grows with its length, else pocketsphinx's hearing of it. `dir` is a scratch
 * folder the caller removes.
 */
export async function hearAudio(input: {
  state: SimulatorState;
  path: string;
  audio: AudioFacts;
  dir: string;
  fault: Fault | undefined;
  sleep: (ms: number) => Promise<void>;
}): Promise<Hearing> {
  const { state, audio, fault, sleep } = input;
  const stats = state.transcriptionStats;
  try {
    if (fault && (fault.kind === 'slow' || fault.delayMs !== undefined)) await sleep(fault.delayMs ?? DEFAULT_SLOW_DELAY_MS);
    if (audio.script) {
      await sleep(state.settings.audioLatencyBaseMs + (state.settings.audioLatencyPerMinuteMs * audio.durationSeconds) / 60);
      stats.byEngine.script += 1;
      return { ok: true, segments: audio.script };
    }
    const timeoutMs = state.settings.transcriberTimeoutMs;
    const segments = await state.transcriberSlots.run(async () => {
      const wav = join(input.dir, 'recogniser.wav');
      await toRecogniserWav(input.path, wav, timeoutMs);
      return runPocketsphinx(wav, timeoutMs);
    });
    stats.byEngine.pocketsphinx += 1;
    return { ok: true, segments };
  } catch (error) {
    if (!(error instanceof TranscriberTimeout)) throw error;
    return { ok: false, message: error.message };
  }
}
