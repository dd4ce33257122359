import assert from '../support/assert';
import { Script, createContext, runInContext } from 'node:vm';
import { describe, test } from '@jest/globals';
import { PUSH_SERVICE_WORKER, PUSH_SUBSCRIBE_HELPER } from '../../api/push/push-browser-scripts';

describe('the Web Push browser scripts (api/push/push-browser-scripts.ts)', () => {
  test('when each script is compiled, then it is valid JavaScript', () => {
    assert.doesNotThrow(() => new Script(PUSH_SERVICE_WORKER, { filename: 'service-worker.js' }));
    assert.doesNotThrow(() => new Script(PUSH_SUBSCRIBE_HELPER, { filename: 'subscribe.js' }));
  });

  test('when a push arrives, then the service worker shows one notification naming the job and tells the open pages', async () => {
    const listeners: Record<string, (event: unknown) => void> = {};
    const shown: Array<{ title: string; options: { body: string; tag: string } }> = [];
    const posted: unknown[] = [];
    const waited: Array<Promise<unknown>> = [];
    const self = {
      addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener),
      registration: { showNotification: async (title: string, options: { body: string; tag: string }) => shown.push({ title, options }) },
      clients: { matchAll: async () => [{ postMessage: (message: unknown) => posted.push(message) }] },
    };
    runInContext(PUSH_SERVICE_WORKER, createContext({ self }));
    const message = { event: 'status', id: 4, scope: 'review_queue', jobType: 'invoice', data: { jobId: 'invoice:demo:k', seq: 4, status: 'awaiting_review', at: '2026-12-06T10:00:00Z' } };
    listeners.push?.({ data: { json: () => message }, waitUntil: (promise: Promise<unknown>) => waited.push(promise) });
    await Promise.all(waited);
    assert.deepEqual(shown, [{ title: 'New review task', options: { body: 'invoice invoice:demo:k', tag: 'invoice:demo:k:4', data: message } }]);
    assert.deepEqual(posted, [{ type: 'slowlane-push', message }]);
  });
});
