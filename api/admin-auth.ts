import type { NextFunction, Request, Response } from 'express';
import type { Secret } from '../lib/secret';
import { ApiError } from './api-error';
import { bearerToken } from './auth';

/**
 * Operators' routes take the admin key (ADMIN_API_KEY) as a Bearer token. Tenant keys never work here: the admin
 * routes see every tenant's jobs. Without a configured key the routes refuse everyone.
 */
export function requireAdmin(adminKey: Secret | undefined) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const token = bearerToken(req.headers.authorization);
    if (!adminKey) return next(new ApiError(401, 'unauthorized', 'the admin API is off: set ADMIN_API_KEY to use it'));
    if (!token || !adminKey.matches(token)) {
      return next(new ApiError(401, 'unauthorized', 'send the admin key as "Authorization: Bearer <ADMIN_API_KEY>"'));
    }
    next();
  };
}
