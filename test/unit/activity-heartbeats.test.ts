import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createExtractText } from '../../activities/extract-text';
import type { ExtractTextInput, ExtractTextResult } from '../../activities/contracts';
import type { ObjectStore } from '../../lib/object-store';

describe('heartbeats of the text extraction', () => {
  test('when the upload is downloaded, then the activity is already heartbeating (the heartbeat timeout runs from the start)', async () => {
    const seen: string[] = [];
    const store = {
      bucket: 'slowlane',
      getBytes: async () => {
        seen.push('download');
        return Buffer.from('Invoice 7\nTotal 10.00 EUR');
      },
      put: async () => {
        seen.push('upload');
      },
    } as Partial<ObjectStore> as ObjectStore;
    const env = new MockActivityEnvironment();
    env.on('heartbeat', () => seen.push('heartbeat'));
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
    assert.deepEqual(seen.slice(0, 2), ['heartbeat', 'download']);
  });
});
