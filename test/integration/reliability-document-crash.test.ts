import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Client } from '@temporalio/client';
import type { DocumentJobState } from '../../common/job-types/document/document-job';
import type { JobProgress } from '../../common/job';
import { longDocumentPage } from '../../local/samples/long-document';
import { FaultHarness } from '../support/fault-harness';

const PAGES = 12;
const CHUNKS_PER_GROUP = 3;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A text document (pages split at form feeds) whose every chunk carries the marker, so faults match only it. */
function markedDocument(marker: string): string {
  return Array.from({ length: PAGES }, (_, page) => `${marker} ${longDocumentPage(page + 1).paragraphs.join(' ')}`).join('\f');
}

/** The attempt that finished each processDocumentChunks step of a child workflow (a group's chunks in one step). */
async function groupStepAttempts(client: Client, childId: string): Promise<number[]> {
  const history = await client.workflow.getHandle(childId).fetchHistory();
  const scheduled = new Set<string>();
  const attempts: number[] = [];
  for (const event of history.events ?? []) {
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'processDocumentChunks') scheduled.add(String(event.eventId));
    const started = event.activityTaskStartedEventAttributes;
    if (started && scheduled.has(String(started.scheduledEventId))) attempts.push(started.attempt ?? 1);
  }
  return attempts;
}

/** How many group steps a worker has started and not finished, in the running child workflows. */
async function groupStepsInFlight(client: Client, childIds: string[]): Promise<number> {
  let inFlight = 0;
  for (const childId of childIds) {
    const description = await client.workflow
      .getHandle(childId)
      .describe()
      .catch(() => undefined);
    inFlight += (description?.raw.pendingActivities ?? []).filter((activity) => activity.lastStartedTime).length;
  }
  return inFlight;
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

  test('when the worker dies with group steps in flight, then a fresh worker asks again only for the chunks in flight and the job completes', async () => {
    const marker = `fanout-${randomUUID()}`;
    // Every chunk summary of this document takes a few seconds, so chunks are in flight when the worker dies.
    faultId = await harness.addSimulatorFault({ match: { tool: 'summarize_chunk', textIncludes: marker }, fault: { kind: 'slow', delayMs: 4_000 }, times: null });
    const summaries = async () => (await harness.simulatorCalls(marker, 'summarize_chunk')).length;
    const doomed = await harness.startWorker();
    const handle = await harness.startDocumentJob(markedDocument(marker), { chunksPerGroup: CHUNKS_PER_GROUP, parallelGroups: 2, parallelChunks: 1 });
    const client = await harness.temporalClient();

    // Wait until both running group steps have a chunk answered (and stored) and the next one out: a chunk at a time each.
    let childIds: string[] = [];
    let answered = 0;
    for (let i = 0; i < 600 && answered < 2; i++) {
      const progress = (await handle.describe()).memo?.progress as JobProgress | undefined;
      if (progress && progress.total > 0) {
        childIds = Array.from({ length: Math.ceil(progress.total / CHUNKS_PER_GROUP) }, (_, group) => `${handle.workflowId}:chunks:0:${group}`);
        answered = await summaries();
      }
      if (answered < 2) await pause(100);
    }
    assert.ok(answered >= 2 && answered < CHUNKS_PER_GROUP * 2, `two groups each with a chunk answered and more to ask (${answered} answered)`);
    await pause(500);
    await doomed.kill();
    harness.supervisor.forget(doomed);
    // Read after the kill: with no worker nothing starts or finishes, and the server keeps a started activity as
    // started until its heartbeat timeout (15 s), so this is exactly what the dead worker had in flight.
    const inFlight = await groupStepsInFlight(client, childIds);
    assert.equal(inFlight, 2, 'both group steps were running at the kill');

    await harness.startWorker();
    const state = (await handle.result()) as DocumentJobState;
    assert.equal(state.status, 'completed');
    const chunks = state.result?.chunks ?? 0;
    assert.ok(chunks > CHUNKS_PER_GROUP * 2, `a document of ${chunks} chunks, more than the two groups at the kill`);

    // Each step in flight had one chunk out (one at a time): that one is asked again (its answer went to the dead
    // worker), but the chunk it had already stored is not. Asking the whole group again would make it two more each.
    const asked = await summaries();
    assert.ok(asked >= chunks && asked <= chunks + inFlight, `${asked} summaries asked for ${chunks} chunks with ${inFlight} group steps in flight`);
    const attempts = (await Promise.all(childIds.map((childId) => groupStepAttempts(client, childId)))).flat();
    assert.equal(attempts.length, childIds.length, 'one group step per group');
    assert.equal(attempts.filter((attempt) => attempt > 1).length, inFlight, 'only the steps in flight ran again');
    assert.equal(state.progress?.done, chunks);
  }, 300_000);
});
