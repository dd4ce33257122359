import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createExtractText } from '../../activities/invoice/extract-text';
import { withHeartbeats } from '../../activities/heartbeat';
import type { ExtractTextInput, ExtractTextResult } from '../../activities/invoice/contracts';
import type { ObjectStore } from '../../lib/object-store';

describe('heartbeats of the text extraction', () => {
  test('when the upload downloads for longer than the heartbeat interval, then the activity heartbeats during the download', async () => {
    const seen: string[] = [];
    const env = new MockActivityEnvironment();
    env.on('heartbeat', () => seen.push('heartbeat'));
    const store = {
      bucket: 'slowlane',
      // The download ends only once a beat was sent while it ran: a download outside the heartbeats never ends.
      getBytes: async () => {
        seen.push('download');
        await new Promise((resolve) => env.once('heartbeat', resolve));
        seen.push('downloaded');
        return Buffer.from('Invoice 7\nTotal 10.00 EUR');
      },
      put: async () => {
        seen.push('upload');
      },
    } as Partial<ObjectStore> as ObjectStore;
    const input: ExtractTextInput = {
      jobId: 'invoice:test:1',
      tenantId: 'test',
      priority: 'interactive',
      document: {
        bucket: 'slowlane',
        key: 'inputs/test/abc',
        sha256: 'abc',
        contentType: 'text/plain',
        sizeBytes: 25,
        fileName: 'invoice.txt',
      },
    };
    const extractText = createExtractText({ store, maxScannedPages: 100 });
    const result = await env.run<[ExtractTextInput], ExtractTextResult, typeof extractText>(extractText, input);
    assert.equal(result.characters, 25);
    assert.deepEqual(seen.slice(0, 3), ['download', 'heartbeat', 'downloaded']);
  });

  test('when the work ends within the first interval, then no heartbeat is sent (a fast model call costs the server no write)', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => beats++);
    const answer = await env.run(() => withHeartbeats(async () => 'answered', 60_000));
    assert.equal(answer, 'answered');
    assert.equal(beats, 0);
  });

  test('when the work outlasts the interval, then it heartbeats until it ends', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => beats++);
    const work = () => new Promise<string>((resolve) => env.on('heartbeat', () => beats === 2 && resolve('done')));
    assert.equal(await env.run(() => withHeartbeats(work, 5)), 'done');
    assert.equal(beats, 2);
  });
});
