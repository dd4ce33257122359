import { Context } from '@temporalio/activity';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DocumentTooLargeError, InvalidDocumentError } from '../../common/errors';
import type { CallChunk, CallJobSettings } from '../../common/job-types/call/call-job';
import { cutPoints, planCallChunks } from '../../common/job-types/call/chunk-plan';
import { type ChunkFormat, cutAudio, detectSilences } from '../../lib/audio/ffmpeg-audio';
import { NotAudioError, probeAudio } from '../../lib/audio/probe-audio';
import type { ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import { chunkComment } from './chunk-tags';
import type { SplitCallAudioInput, SplitCallAudioResult } from './contracts';
import { callObjectKeys } from './object-keys';

export interface SplitCallAudioDeps {
  store: ObjectStore;
  settings: CallJobSettings & { maxDurationSeconds: number; maxUploadBytes: number };
}

const CONTENT_TYPES: Record<ChunkFormat, string> = { flac: 'audio/flac', ogg: 'audio/ogg' };

/**
 * Cuts the upload into chunks at silences near CALL_CHUNK_SECONDS, with CALL_CHUNK_OVERLAP_SECONDS on each side,
 * each below the provider's upload limit, and writes them under the job's prefix. A retry cuts the same chunks to
 * the same keys. The worker holds the recording to the duration the door held it to.
 */
export function createSplitCallAudio(deps: SplitCallAudioDeps) {
  const { maxDurationSeconds, maxUploadBytes, ...settings } = deps.settings;
  return async function splitCallAudio(input: SplitCallAudioInput): Promise<SplitCallAudioResult> {
    const { attempt } = Context.current().info;
    const dir = await mkdtemp(join(tmpdir(), 'slowlane-call-split-'));
    try {
      return await withHeartbeats(async () => {
        const recording = join(dir, 'recording');
        await pipeline((await deps.store.open(input.recording.key)).body, createWriteStream(recording));
        const facts = await probeAudio(recording).catch((error: unknown) => {
          if (error instanceof NotAudioError) throw new InvalidDocumentError(error.message, { cause: error });
          throw error;
        });
        const durationSeconds = Math.round(facts.durationSeconds * 1000) / 1000;
        if (durationSeconds > maxDurationSeconds) {
          throw new DocumentTooLargeError(`the recording is ${Math.ceil(durationSeconds)} s long; the limit is ${maxDurationSeconds} s`);
        }
        // One chunk needs no cut, so no pass over the audio for silences.
        const silences = durationSeconds > settings.chunkSeconds ? await detectSilences(recording) : [];
        const planned = planCallChunks(durationSeconds, cutPoints(durationSeconds, silences, settings), settings.overlapSeconds, (index) =>
          callObjectKeys.chunk(input.tenantId, input.jobId, index),
        );
        const chunks: CallChunk[] = [];
        for (const chunk of planned) {
          const comment = chunkComment(facts.comment, chunk.start, chunk.end);
          const { bytes, format } = await encodeBelow(recording, join(dir, `chunk-${chunk.index}`), chunk, maxUploadBytes, comment);
          const key = chunk.key.replace(/\.flac$/, `.${format}`);
          await deps.store.put(key, bytes, { contentType: CONTENT_TYPES[format] });
          chunks.push({ ...chunk, key });
        }
        return { durationSeconds, chunks, settings, attempt };
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** FLAC when it fits the provider's limit, else Opus; a chunk neither fits is a setting too large for the provider. */
async function encodeBelow(
  recording: string,
  base: string,
  span: { start: number; end: number },
  maxBytes: number,
  comment: string | undefined,
): Promise<{ bytes: Buffer; format: ChunkFormat }> {
  for (const format of ['flac', 'ogg'] as const) {
    const path = `${base}.${format}`;
    await cutAudio(recording, path, span, format, comment);
    const bytes = await readFile(path);
    if (bytes.length <= maxBytes) return { bytes, format };
  }
  throw new DocumentTooLargeError(
    `a ${Math.round(span.end - span.start)} s chunk is over the provider's ${maxBytes}-byte limit even as Opus; lower CALL_CHUNK_SECONDS`,
  );
}
