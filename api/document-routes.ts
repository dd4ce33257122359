import { pipeline } from 'node:stream/promises';
import { type Request, type Response, Router } from 'express';
import type { Config } from '../lib/config';
import { authenticate, callerOf } from './auth';
import type { JobsService } from './jobs-service';

/**
 * `GET /jobs/:id/document`: the uploaded file, streamed from the object store, for the reviewer page; and
 * `GET /jobs/:id/transcript`: a call's timed transcript, which the page shows beside the recording.
 */
export function documentRouter(deps: { jobs: JobsService; config: Pick<Config, 'tenants' | 'people'> }): Router {
  const router = Router();
  const callers = authenticate(deps.config, ['api', 'reviewer']);

  router.get('/jobs/:id/document', callers, async (req: Request, res: Response) => {
    const document = await deps.jobs.openDocument(callerOf(res).tenant.id, String(req.params.id));
    const contentType = document.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : (document.contentType ?? 'application/pdf');
    res.status(200).set({
      'content-type': contentType,
      'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(document.fileName)}`,
      // Uploaded bytes are the tenant's, not ours: never run them as a page of this origin.
      'content-security-policy': 'sandbox',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=300',
      ...(document.contentLength !== undefined ? { 'content-length': String(document.contentLength) } : {}),
    });
    let storeFailed = false;
    // Only while we still send: on Node 24 pipeline() also errors the body after the reader leaves.
    document.body.once('error', () => (storeFailed = !res.destroyed));
    try {
      await pipeline(document.body, res);
    } catch (error) {
      // The reviewer moved on before the document arrived: nothing failed on our side, nothing to log.
      if (!storeFailed && (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      throw error;
    }
  });

  router.get('/jobs/:id/transcript', callers, async (req: Request, res: Response) => {
    const transcript = await deps.jobs.transcript(callerOf(res).tenant.id, String(req.params.id));
    res.status(200).set({ 'cache-control': 'private, no-store' }).json(transcript);
  });

  return router;
}
