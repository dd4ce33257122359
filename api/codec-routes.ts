import { isIPv4 } from 'node:net';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Payload, PayloadCodec } from '@temporalio/common';
import type { Config } from '../lib/config';
import { PayloadDecryptionError } from '../lib/payload-codec/encryption-codec';
import { requireOperator } from './admin-auth';
import { ApiError, apiErrors } from './api-error';

/** A payload as the Temporal Web UI and CLI send it to a codec server: metadata values and data in base64. */
interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

export interface CodecRouteDeps {
  codec: PayloadCodec;
  config: Pick<Config, 'tenants' | 'people' | 'deployment'> & { temporal: Pick<Config['temporal'], 'namespace' | 'webUiUrl'> };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (how a dual-stack listener reports an IPv4 peer). */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIPv4(v4) ? v4.startsWith('127.') : address === '::1';
}

/**
 * `/codec/encode` and `/codec/decode`, the protocol of the Temporal Web UI's `--ui-codec-endpoint` and the CLI's
 * `--codec-endpoint`, for operators allowed to read payloads: an operator's token or OIDC identity (as `/admin/*`), answering the Web UI's origin
 * (TEMPORAL_WEB_UI_URL) with CORS. In local mode a caller on this machine needs no credential, because the dev
 * server's UI has no sign-in to pass one on. That is decided by the connection's peer address, which a client
 * cannot choose, never by `Origin`, which any non-browser client sets to whatever it likes; an `Origin` other
 * than the Web UI's is still refused, so a page of another site (or one that rebinds its name to 127.0.0.1)
 * cannot use a browser on this machine to reach the codec.
 */
export function codecRouter(deps: CodecRouteDeps): Router {
  const router = Router();
  const uiOrigin = new URL(deps.config.temporal.webUiUrl).origin;
  const operator = requireOperator(deps.config);

  router.use('/codec', (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.origin === uiOrigin) {
      res.set({
        'Access-Control-Allow-Origin': uiOrigin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Namespace',
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      });
    }
    if (req.method === 'OPTIONS') {
      res.status(req.headers.origin === uiOrigin ? 204 : 403).end();
      return;
    }
    const origin = req.headers.origin;
    const onThisMachine = deps.config.deployment === 'local' && isLoopbackPeer(req.socket.remoteAddress);
    if (onThisMachine && (origin === undefined || origin === uiOrigin)) return next();
    operator(req, res, next).catch(next);
  });

  const handle = (direction: 'encode' | 'decode') => async (req: Request, res: Response) => {
    const namespace = req.headers['x-namespace'];
    if (namespace !== undefined && namespace !== deps.config.temporal.namespace) {
      throw apiErrors.invalidRequest(`this codec serves namespace ${deps.config.temporal.namespace}, not ${String(namespace)}`);
    }
    const payloads = payloadsOf(req.body);
    try {
      const result = await deps.codec[direction](payloads);
      res.json({ payloads: result.map(toJson) });
    } catch (error) {
      if (error instanceof PayloadDecryptionError) throw new ApiError(422, 'undecryptable_payload', error.message);
      throw error;
    }
  };
  router.post('/codec/encode', handle('encode'));
  router.post('/codec/decode', handle('decode'));
  return router;
}

function payloadsOf(body: unknown): Payload[] {
  const list = (body as { payloads?: unknown } | undefined)?.payloads;
  if (!Array.isArray(list)) throw apiErrors.invalidRequest('the body must be {"payloads": [...]}', { field: 'payloads' });
  return list.map((item: unknown, index) => {
    const { metadata = {}, data = '' } = (item ?? {}) as JsonPayload;
    if (typeof metadata !== 'object' || typeof data !== 'string' || Object.values(metadata).some((v) => typeof v !== 'string')) {
      throw apiErrors.invalidRequest(`payloads[${index}] must be {metadata: {key: base64}, data: base64}`, { field: 'payloads' });
    }
    return {
      metadata: Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, Buffer.from(value, 'base64')])),
      data: Buffer.from(data, 'base64'),
    };
  });
}

function toJson(payload: Payload): JsonPayload {
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value ?? new Uint8Array()).toString('base64')]),
    ),
    data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
  };
}
