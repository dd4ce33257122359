import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Tenant } from '../lib/config';
import { apiErrors } from './api-error';

export interface Caller {
  tenant: Tenant;
  /** 'api' for API keys, 'reviewer' for reviewer tokens (review endpoints and the reviewer page only). */
  role: 'api' | 'reviewer';
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function findCaller(tenants: Tenant[], authorization: string | undefined): Caller | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return undefined;
  const token = match[1];
  for (const tenant of tenants) {
    if (sameSecret(token, tenant.apiKey.reveal())) return { tenant, role: 'api' };
    if (sameSecret(token, tenant.reviewerToken.reveal())) return { tenant, role: 'reviewer' };
  }
  return undefined;
}

/** API key or reviewer token → tenant; the caller is kept on res.locals for the routes. */
export function authenticate(tenants: Tenant[], allowed: Array<Caller['role']>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const caller = findCaller(tenants, req.headers.authorization);
    if (!caller || !allowed.includes(caller.role)) return next(apiErrors.unauthorized());
    res.locals.caller = caller;
    next();
  };
}

export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}
