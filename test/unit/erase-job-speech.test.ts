import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ApiError } from '../../api/api-error';
import { answeringUnavailable } from '../../api/jobs/erase-job';

describe("DELETE /jobs/:id and the speech provider's deletions", () => {
  test('when the provider fails to delete a transcript, then the erasure answers the documented 503 with a Retry-After, not a 500', async () => {
    const remover = answeringUnavailable({ deleteTranscript: async () => Promise.reject(new Error('speech provider unreachable: ECONNREFUSED')) });

    const error = await remover.deleteTranscript('t-1').then(
      () => assert.fail('expected the deletion to fail'),
      (caught: unknown) => caught,
    );

    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 503);
    assert.equal(error.code, 'speech_provider_unavailable');
    assert.equal(error.details?.retryAfterSeconds, 5);
  });

  test('when the provider deletes it, then the erasure goes on', async () => {
    const deleted: string[] = [];
    await answeringUnavailable({ deleteTranscript: async (id) => void deleted.push(id) }).deleteTranscript('t-2');
    assert.deepEqual(deleted, ['t-2']);
  });
});
