import { dirname, join } from 'node:path';
import express, { type Request, type Response, Router } from 'express';
import type { ReviewSession } from '../common/api-contract/meta';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { type BuiltScript, loadReviewerScript } from '../reviewer/build';
import { ApiError } from './api-error';
import { authenticate, callerOf } from './auth';

const STATIC_DIR = join(__dirname, '..', 'reviewer', 'static');
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));

/**
 * The page runs only our own script: no inline code, no eval (the schema validator is compiled ahead of time and
 * pdf.js runs with isEvalSupported=false), and it may talk only to this API.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  // A call's recording plays from a blob URL of the upload (GET /jobs/:id/document needs the reviewer's token).
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** The reviewer page at /review: static files, the bundled script, pdf.js from node_modules, and who is signed in. */
export function reviewPageRouter(deps: { config: Pick<Config, 'tenants' | 'people' | 'jobs'>; log: Logger }): Router {
  const router = Router();
  let script: Promise<BuiltScript> | undefined;
  const builtScript = () => {
    // Built on first use and kept; a failed build is retried on the next request instead of being cached.
    script ??= loadReviewerScript().catch((error: unknown) => {
      script = undefined;
      throw error;
    });
    return script;
  };

  const pageHeaders = (res: Response) =>
    res.set({
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });

  router.get('/review', (_req: Request, res: Response) => {
    pageHeaders(res).set('cache-control', 'no-cache');
    res.sendFile(join(STATIC_DIR, 'index.html'));
  });

  router.get('/review/assets/reviewer.js', async (req: Request, res: Response) => {
    let built: BuiltScript;
    try {
      built = await builtScript();
    } catch (error) {
      deps.log.error({ err: error }, 'reviewer page script failed to build');
      throw new ApiError(503, 'reviewer_unavailable', 'the reviewer page could not be built; see the API log');
    }
    pageHeaders(res).set({ 'cache-control': 'no-cache', etag: built.etag });
    if (req.header('if-none-match') === built.etag) {
      res.status(304).end();
      return;
    }
    res.type('text/javascript').send(built.code);
  });

  router.get('/review/assets/reviewer.css', (_req: Request, res: Response) => {
    pageHeaders(res).set('cache-control', 'no-cache');
    res.sendFile(join(STATIC_DIR, 'reviewer.css'));
  });

  // pdf.js as shipped by pdfjs-dist: the library, its worker, and the data files it fetches for some PDFs.
  const vendorOptions = { maxAge: '1d', index: false } as const;
  // Font programs and CMaps are opaque data to the browser; one type keeps them out of any sniffing.
  const opaque = { ...vendorOptions, setHeaders: (res: Response) => res.setHeader('content-type', 'application/octet-stream') };
  router.get('/review/vendor/pdf.mjs', (_req, res) => void pageHeaders(res).sendFile(join(PDFJS_DIR, 'build', 'pdf.min.mjs')));
  router.get('/review/vendor/pdf.worker.mjs', (_req, res) => void pageHeaders(res).sendFile(join(PDFJS_DIR, 'build', 'pdf.worker.min.mjs')));
  router.use('/review/vendor/standard_fonts', express.static(join(PDFJS_DIR, 'standard_fonts'), opaque));
  router.use('/review/vendor/cmaps', express.static(join(PDFJS_DIR, 'cmaps'), opaque));
  router.use('/review/vendor/wasm', express.static(join(PDFJS_DIR, 'wasm'), vendorOptions));

  router.get('/review/session', authenticate(deps.config, ['api', 'reviewer']), (_req: Request, res: Response) => {
    const caller = callerOf(res);
    const session: ReviewSession = {
      tenantId: caller.tenant.id,
      role: caller.role,
      reviewer: caller.identity,
      via: caller.via,
      confidenceThreshold: deps.config.jobs.confidenceThreshold,
    };
    res.set('cache-control', 'no-store').json(session);
  });

  return router;
}
