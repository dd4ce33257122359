import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { temporal } from '@temporalio/proto';
import { isActivityStep, stepNamed } from '../../common/job-steps';
import { historyFromFileText } from '../../ops/history-files';
import { findResetPoint } from '../../ops/reset-point';

type Event = temporal.api.history.v1.IHistoryEvent;

/** A tiny history builder: events get consecutive ids, as the server writes them. */
function history() {
  const events: Event[] = [];
  const add = (event: Record<string, unknown>) => {
    const eventId = events.length + 1;
    events.push(temporal.api.history.v1.HistoryEvent.fromObject({ ...event, eventId }));
    return eventId;
  };
  /** One workflow task that schedules `activityType`; returns the scheduled event's id. */
  const schedule = (activityType: string) => {
    add({ workflowTaskStartedEventAttributes: {} });
    const completed = add({ workflowTaskCompletedEventAttributes: {} });
    return {
      completed,
      scheduled: add({ activityTaskScheduledEventAttributes: { activityType: { name: activityType }, workflowTaskCompletedEventId: completed } }),
    };
  };
  const complete = (scheduledEventId: number) => add({ activityTaskCompletedEventAttributes: { scheduledEventId } });
  const fail = (scheduledEventId: number) => add({ activityTaskFailedEventAttributes: { scheduledEventId } });
  const update = () => add({ workflowExecutionUpdateAcceptedEventAttributes: {} });
  return { events, schedule, complete, fail, update, add };
}

describe('findResetPoint', () => {
  test('when extractInvoiceFields failed, then the reset point is the task that scheduled it, after classification completed', () => {
    const h = history();
    h.complete(h.schedule('extractText').scheduled);
    h.complete(h.schedule('classifyDocument').scheduled);
    const extract = h.schedule('extractInvoiceFields');
    h.fail(extract.scheduled);
    const point = findResetPoint(h.events, 'extractInvoiceFields');
    assert.equal(point?.eventId, extract.completed);
    assert.equal(point?.step, 'extractInvoiceFields');
  });

  test('when the model was asked again and then failed, then the whole step runs again from its first scheduling', () => {
    const h = history();
    h.complete(h.schedule('classifyDocument').scheduled);
    const first = h.schedule('extractInvoiceFields');
    h.complete(first.scheduled);
    const second = h.schedule('extractInvoiceFields');
    h.fail(second.scheduled);
    assert.equal(findResetPoint(h.events, 'extractInvoiceFields')?.eventId, first.completed);
  });

  test('when a dead letter was retried and failed again, then the reset goes before the first failure, ahead of the operator Updates', () => {
    const h = history();
    h.complete(h.schedule('extractText').scheduled);
    const first = h.schedule('postInvoiceToLedger');
    h.fail(first.scheduled);
    h.update();
    const retried = h.schedule('postInvoiceToLedger');
    h.fail(retried.scheduled);
    h.update();
    assert.equal(findResetPoint(h.events, 'postInvoiceToLedger')?.eventId, first.completed);
  });

  test('when the failed step is not known from the memo, then the last failed activity names it', () => {
    const h = history();
    h.complete(h.schedule('extractText').scheduled);
    const classify = h.schedule('classifyDocument');
    h.fail(classify.scheduled);
    const point = findResetPoint(h.events);
    assert.equal(point?.eventId, classify.completed);
    assert.equal(point?.step, 'classifyDocument');
  });

  test('when no activity failed (a workflow bug), then the last completed workflow task runs again', () => {
    const h = history();
    h.complete(h.schedule('extractText').scheduled);
    h.add({ workflowTaskStartedEventAttributes: {} });
    const last = h.add({ workflowTaskCompletedEventAttributes: {} });
    const point = findResetPoint(h.events);
    assert.equal(point?.eventId, last);
    assert.equal(point?.step, undefined);
  });

  test('when no workflow task ever completed, then there is nothing to reset to', () => {
    const started = temporal.api.history.v1.HistoryEvent.fromObject({ eventId: 1, workflowExecutionStartedEventAttributes: {} });
    assert.equal(findResetPoint([started]), undefined);
  });

  test('when a recorded history whose ledger post dead-lettered and expired is read, then the reset point precedes the post', () => {
    const file = join(__dirname, '..', 'histories', 'dead-letter-expired.json');
    const events = historyFromFileText(readFileSync(file, 'utf8')).events ?? [];
    const point = findResetPoint(events, 'postInvoiceToLedger');
    const post = events.find((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'postInvoiceToLedger');
    assert.ok(post && point);
    assert.equal(point.eventId, Number(post.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId));
    assert.ok(events.find((event) => Number(event.eventId) === point.eventId)?.workflowTaskCompletedEventAttributes);
  });

  test('when a history recorded before the steps took their activities\' names is read, then its former step name still finds the reset point', () => {
    const file = join(__dirname, '..', 'histories', 'dead-letter-expired.json');
    const events = historyFromFileText(readFileSync(file, 'utf8')).events ?? [];
    const recorded = events
      .map((event) => event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.JobStep?.data)
      .filter((data) => data !== undefined && data !== null)
      .map((data) => JSON.parse(Buffer.from(data).toString('utf8')) as unknown)
      .at(-1);
    assert.equal(recorded, 'postToLedger', 'the history holds the former name');
    const step = stepNamed(recorded);
    assert.ok(step && isActivityStep(step));
    assert.equal(findResetPoint(events, step)?.step, 'postInvoiceToLedger');
    assert.equal(findResetPoint(events, step)?.eventId, findResetPoint(events, 'postInvoiceToLedger')?.eventId);
  });
});
