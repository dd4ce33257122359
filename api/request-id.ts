import { randomUUID } from 'node:crypto';
import type { Request } from 'express';

const REQUEST_ID = /^[A-Za-z0-9._~:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a plain token, else a fresh one: what a log line and an answer share. */
export function requestIdOf(req: Request): string {
  const given = req.header('x-request-id');
  return given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
}
