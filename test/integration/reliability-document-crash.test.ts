import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import type { ProcessDocumentChunkInput } from '../../activities/document/contracts';
import type { DocumentJobState } from '../../common/job-types/document/document-job';
import type { JobProgress } from '../../common/job';
import { longDocumentPage } from '../../local/samples/long-document';
import { FaultHarness } from '../support/fault-harness';
import { testDataConverter } from '../support/test-codec';

const PAGES = 12;
const CHUNKS_PER_GROUP = 2;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A text document (pages split at form feeds) whose every chunk carries the marker, so faults match only it. */
function markedDocument(marker: string): string {
  return Array.from({ length: PAGES }, (_, page) => `${marker} ${longDocumentPage(page + 1).paragraphs.join(' ')}`).join('\f');
}

type EventPayload = NonNullable<NonNullable<NonNullable<temporal.api.history.v1.IHistoryEvent['activityTaskScheduledEventAttributes']>['input']>['payloads']>[number];

/** The chunk a processDocumentChunk was scheduled for, read from its input through the stack's payload codec. */
async function chunkIndexOf(payload: EventPayload | undefined): Promise<number | undefined> {
  if (!payload) return undefined;
  const codec = testDataConverter().payloadCodecs?.[0];
  const [decoded] = codec ? await codec.decode([payload]) : [payload];
  return decoded ? defaultPayloadConverter.fromPayload<ProcessDocumentChunkInput>(decoded).index : undefined;
}

/** Every processDocumentChunk of a child workflow: the chunk it ran and the attempt that finished it. */
async function chunkAttempts(client: Client, childId: string): Promise<Array<{ index: number; attempt: number }>> {
  const history = await client.workflow.getHandle(childId).fetchHistory();
  const indexByEvent = new Map<string, number>();
  const attempts: Array<{ index: number; attempt: number }> = [];
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    const scheduledIndex = scheduled?.activityType?.name === 'processDocumentChunk' ? await chunkIndexOf(scheduled.input?.payloads?.[0]) : undefined;
    if (scheduledIndex !== undefined) indexByEvent.set(String(event.eventId), scheduledIndex);
    const started = event.activityTaskStartedEventAttributes;
    const index = indexByEvent.get(String(started?.scheduledEventId));
    if (started && index !== undefined) attempts.push({ index, attempt: started.attempt ?? 1 });
  }
  return attempts;
}

/** The chunks whose activity a worker has started and not finished, in the running child workflows. */
async function chunksInFlight(client: Client, childIds: string[]): Promise<number[]> {
  const inFlight: number[] = [];
  for (const childId of childIds) {
    const description = await client.workflow
      .getHandle(childId)
      .describe()
      .catch(() => undefined);
    const started = (description?.raw.pendingActivities ?? []).filter((activity) => activity.lastStartedTime);
    if (started.length === 0) continue;
    const history = await client.workflow.getHandle(childId).fetchHistory();
    for (const activity of started) {
      const scheduled = history.events?.find(
        (event) => event.activityTaskScheduledEventAttributes?.activityId === activity.activityId,
      )?.activityTaskScheduledEventAttributes;
      const index = await chunkIndexOf(scheduled?.input?.payloads?.[0]);
      if (index !== undefined) inFlight.push(index);
    }
  }
  return inFlight.sort((a, b) => a - b);
}

describe('a worker killed in the middle of a document fan-out', () => {
  let harness: FaultHarness;
  let faultId: string | undefined;
  beforeAll(async () => {
    harness = await FaultHarness.create();
  });
  afterAll(async () => {
    if (faultId) await harness?.removeSimulatorFault(faultId);
    await harness?.close();
  });

  test('when the worker dies with chunks in flight, then a fresh worker reruns only those chunks and the job completes', async () => {
    const marker = `fanout-${randomUUID()}`;
    // Every chunk summary of this document takes a few seconds, so chunks are in flight when the worker dies.
    faultId = await harness.addSimulatorFault({ match: { tool: 'summarize_chunk', textIncludes: marker }, fault: { kind: 'slow', delayMs: 4_000 }, times: null });
    const doomed = await harness.startWorker();
    const handle = await harness.startDocumentJob(markedDocument(marker), { chunksPerGroup: CHUNKS_PER_GROUP, parallelGroups: 2, parallelChunks: 1 });
    const client = await harness.temporalClient();

    // Wait until a group has finished (so some chunks are done) and chunks of another are running.
    let running = false;
    let childIds: string[] = [];
    for (let i = 0; i < 600 && !running; i++) {
      const progress = (await handle.describe()).memo?.progress as JobProgress | undefined;
      if (progress && progress.done >= CHUNKS_PER_GROUP) {
        childIds = Array.from({ length: Math.ceil(progress.total / CHUNKS_PER_GROUP) }, (_, group) => `${handle.workflowId}:chunks:0:${group}`);
        running = (await chunksInFlight(client, childIds)).length > 0;
      }
      if (!running) await pause(100);
    }
    assert.ok(running, 'chunks should be running on the first worker after a group finished');
    await doomed.kill();
    harness.supervisor.forget(doomed);
    // Read after the kill: with no worker nothing starts or finishes, and the server keeps a started activity as
    // started until its heartbeat timeout (15 s), so this is exactly what the dead worker had in flight.
    const inFlight = await chunksInFlight(client, childIds);
    const doneBefore = ((await handle.describe()).memo?.progress as JobProgress | undefined)?.done ?? 0;
    assert.ok(inFlight.length > 0);

    await harness.startWorker();
    const state = (await handle.result()) as DocumentJobState;
    assert.equal(state.status, 'completed');
    const chunks = state.result?.chunks ?? 0;
    assert.ok(chunks > doneBefore + inFlight.length, `a document of ${chunks} chunks, ${doneBefore} done and ${inFlight.length} in flight at the kill`);

    const attempts = (await Promise.all(childIds.map((childId) => chunkAttempts(client, childId)))).flat();
    // Every chunk ran in exactly one activity; only the ones in flight at the kill needed a second attempt.
    assert.deepEqual(attempts.map((run) => run.index).sort((a, b) => a - b), Array.from({ length: chunks }, (_, index) => index));
    const rerun = attempts.filter((run) => run.attempt > 1).map((run) => run.index).sort((a, b) => a - b);
    assert.deepEqual(rerun, inFlight, 'the chunks rerun are exactly those in flight when the worker died');
    assert.equal(state.progress?.done, chunks);
  }, 300_000);
});
