import { ActivityFailure, ApplicationFailure, patched, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import type { TranscribeCallChunkInput, TranscribeCallChunkResult } from '../../activities/call/contracts';
import type { CallChunk, CallJobInput, CallJobState } from '../../common/job-types/call/call-job';
import { callJobType } from '../../common/job-types/call/definition';
import { lowConfidenceReason } from '../../common/job-types/call/transcript';
import { callbackWaitOptions, documentFileOptions, modelCallOptions } from '../activity-options';
import { JobRun } from '../job-run';
import { PATCHES } from '../patches';

const fileSteps = proxyActivities<JobActivities>(documentFileOptions);
const modelSteps = proxyActivities<JobActivities>(modelCallOptions);

/**
 * `call.transcribe`: the recording is cut at silences into chunks in S3 (splitCallAudio); the chunks are
 * transcribed through the speech gateway a few at a time, progress in minutes of audio (transcribeCallChunk, or with
 * the provider that calls back awaitCallChunkTranscript then storeCallChunkTranscript); the
 * chunks' transcripts are joined into one, JSON and WebVTT (joinCallTranscript); the model summarises it
 * (summarizeCall). A summary that fails its schema, or a call heard with low confidence (below
 * CALL_REVIEW_CONFIDENCE), goes to a reviewer, who approves the summary edited. History stays
 * small: a few events per chunk, S3 keys only. A chunk that fails for good parks the job; `retry` runs only the
 * chunks without a transcript, and a killed worker costs only the chunks it had in flight.
 */
export async function callTranscribeWorkflow(input: CallJobInput): Promise<CallJobState> {
  const job = new JobRun(input, callJobType);
  const state = job.state as CallJobState;
  const context = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority };

  return (await job.settle(async () => {
    const split = await job.run('splitCallAudio', () =>
      fileSteps.splitCallAudio.executeWithOptions(
        { ...documentFileOptions, summary: `Cut ${input.document.fileName} (${input.document.sizeBytes} bytes) at silences` },
        [{ ...context, recording: input.document }],
      ),
    );
    const { chunks } = split;
    const total = Math.ceil(split.durationSeconds / 60);
    const transcripts: Array<TranscribeCallChunkResult | undefined> = chunks.map(() => undefined);
    let secondsDone = 0;
    // Whole minutes transcribed; the last chunk completes the count, whatever the call's seconds past a minute.
    const publishProgress = (): void =>
      job.tracker.publishProgress({
        unit: 'minutes',
        done: transcripts.every(Boolean) ? total : Math.min(total, Math.floor(secondsDone / 60)),
        total,
      });
    publishProgress();

    await job.run('transcribeCallChunk', () =>
      transcribeMissing(chunks, transcripts, split.settings.parallelChunks, async (chunk) => {
        const span = `chunk ${chunk.index + 1}/${chunks.length} (${clock(chunk.start)}–${clock(chunk.end)})`;
        const { callback } = split.settings;
        const result = callback
          ? await transcribeByCallback({ ...context, chunk }, span, callback.waitMs)
          : await modelSteps.transcribeCallChunk.executeWithOptions({ ...modelCallOptions, summary: `Transcribe ${span}` }, [{ ...context, chunk }]);
        job.tracker.addUsage(result.usage);
        return result;
      }, (chunk) => {
        secondsDone += chunk.ownEnd - chunk.ownStart;
        // One memo upsert per chunk: a chunk is minutes of audio, so a four-hour call makes a few dozen.
        publishProgress();
      }),
    );

    const joined = await job.run('joinCallTranscript', () =>
      fileSteps.joinCallTranscript.executeWithOptions({ ...documentFileOptions, summary: `Join ${chunks.length} chunk transcripts` }, [
        {
          ...context,
          durationSeconds: split.durationSeconds,
          chunks: chunks.map((chunk, index) => ({ chunk, transcriptKey: (transcripts[index] as TranscribeCallChunkResult).transcriptKey })),
        },
      ]),
    );
    // Readable while the call awaits review (GET /jobs/:id/transcript); state for queries, not a command.
    state.transcript = {
      key: joined.transcriptKey,
      confidence: joined.confidence,
      lowConfidenceSegments: joined.lowConfidenceSegments,
      reviewConfidence: joined.reviewConfidence,
    };
    const lowConfidence = lowConfidenceReason(joined);
    const summarized = await job.run('summarizeCall', () =>
      modelSteps.summarizeCall.executeWithOptions({ ...modelCallOptions, summary: `Summarise the call (${joined.segments} segments)` }, [
        { ...context, textKey: joined.textKey },
      ]),
    );
    job.tracker.addUsage(summarized.usage);
    const audioSecondsBilled = transcripts.reduce((sum, transcript) => sum + (transcript?.audioSeconds ?? 0), 0);
    const resultOf = (summary: CallJobState['proposal'] & object, summarizedBy: 'model' | 'reviewer') => ({
      durationSeconds: split.durationSeconds,
      chunks: chunks.length,
      segments: joined.segments,
      transcriptKey: joined.transcriptKey,
      vttKey: joined.vttKey,
      audioSecondsBilled,
      summary,
      summarizedBy,
    });

    // Asked only when it would change the outcome, so only the histories of low-confidence calls carry the marker.
    const heardTooPoorly = lowConfidence !== undefined && patched(PATCHES.callLowConfidenceReview.id);
    if (summarized.outcome === 'valid' && !heardTooPoorly) {
      state.result = resultOf(summarized.summary, 'model');
      return job.finish('completed');
    }
    // Said on the page whichever sent it here, so the reviewer listens to the marked lines first.
    if (lowConfidence) state.reviewReason = lowConfidence;
    if (summarized.outcome === 'valid') {
      // The reviewer starts from the model's summary and checks it against the audio.
      state.proposal = summarized.summary;
    } else {
      state.rawModelOutput = summarized.rawOutput;
      state.validationErrors = summarized.errors;
    }
    const decision = await job.review.await(job.notify);
    if (!decision) return job.finish('review_expired');
    const decidedAt = new Date().toISOString();
    if (decision.decision === 'reject') {
      state.review = { decision: 'rejected', reviewer: decision.reviewer, reason: decision.reason, decidedAt };
      return job.finish('rejected');
    }
    state.review = { decision: 'approved', reviewer: decision.reviewer, decidedAt };
    // The Update's validator held the fields to the editable schema (CallSummary).
    state.result = resultOf(decision.fields as CallJobState['proposal'] & object, 'reviewer');
    return job.finish('completed');
  })) as CallJobState;
}

/**
 * A chunk through the provider that calls back (the split's settings say so): submitted, then waited for without a
 * worker slot, the completion carrying only the transcript's id; a second step reads the transcript by that id and
 * stores it as the one-step path does, and its result (the bill counted once) is the chunk's.
 */
async function transcribeByCallback(input: TranscribeCallChunkInput, span: string, waitMs: number): Promise<TranscribeCallChunkResult> {
  const { transcriptId } = await modelSteps.awaitCallChunkTranscript.executeWithOptions(
    { ...callbackWaitOptions(waitMs), summary: `Submit ${span}, wait for its callback` },
    [input],
  );
  return modelSteps.storeCallChunkTranscript.executeWithOptions({ ...modelCallOptions, summary: `Store the transcript of ${span}` }, [
    { ...input, transcriptId },
  ]);
}

/**
 * Transcribes every chunk without a transcript, `parallel` at a time, past a failed chunk so one bad chunk costs
 * no other its transcript. When some failed, the first failure is thrown for the step (the job parks on it), its
 * message naming every failed chunk; an operator's retry calls this again and only the missing chunks run. Reports
 * each chunk as it lands.
 */
async function transcribeMissing(
  chunks: readonly CallChunk[],
  transcripts: Array<TranscribeCallChunkResult | undefined>,
  parallel: number,
  transcribe: (chunk: CallChunk) => Promise<TranscribeCallChunkResult>,
  onDone: (chunk: CallChunk) => void,
): Promise<{ attempt: number }> {
  const pending = chunks.filter((chunk) => transcripts[chunk.index] === undefined);
  const failures: Array<{ index: number; error: unknown }> = [];
  let attempt = 1;
  const lane = async (): Promise<void> => {
    for (let chunk = pending.shift(); chunk; chunk = pending.shift()) {
      try {
        const result = await transcribe(chunk);
        transcripts[chunk.index] = result;
        attempt = Math.max(attempt, result.attempt);
        onDone(chunk);
      } catch (error) {
        failures.push({ index: chunk.index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, pending.length) }, lane));
  if (failures.length === 0) return { attempt };
  failures.sort((a, b) => a.index - b.index);
  const first = failures[0]?.error;
  if (first instanceof ActivityFailure && first.cause instanceof ApplicationFailure) {
    first.cause.message = `chunk ${failures.map((failure) => failure.index + 1).join(', ')} of ${chunks.length}: ${first.cause.message}`;
  }
  throw first;
}

function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
