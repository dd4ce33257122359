import type { NextFunction, Request, Response } from 'express';
import type { Tenant } from '../lib/config';
import { apiErrors } from './api-error';

export interface Caller {
  tenant: Tenant;
  /** 'api' for API keys, 'reviewer' for reviewer tokens (review endpoints and the reviewer page only). */
  role: 'api' | 'reviewer';
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
}

export function findCaller(tenants: Tenant[], authorization: string | undefined): Caller | undefined {
  const token = bearerToken(authorization);
  if (!token) return undefined;
  for (const tenant of tenants) {
    if (tenant.apiKey.matches(token)) return { tenant, role: 'api' };
    if (tenant.reviewerToken.matches(token)) return { tenant, role: 'reviewer' };
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
