import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../lib/config';
import { ApiError } from './api-error';
import { authenticatorFor, type Operator } from './auth';

/**
 * Operators' routes take an operator's own token (SLOWLANE_OPERATORS) or an OIDC identity token with the operator
 * role. Tenant keys and reviewer tokens never work here: the admin routes see every tenant's jobs. With no
 * operator configured the routes refuse everyone.
 */
export function requireOperator(config: Pick<Config, 'tenants' | 'people'>) {
  const authenticator = authenticatorFor(config);
  const anyone = config.people.operators.length > 0 || config.people.oidc !== undefined;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (!anyone) return next(new ApiError(401, 'unauthorized', 'the admin API is off: configure SLOWLANE_OPERATORS or OIDC to use it'));
    const operator = await authenticator.operator(req.headers.authorization);
    if (!operator) return next(new ApiError(401, 'unauthorized', 'send your operator token as "Authorization: Bearer <token>"'));
    res.locals.operator = operator;
    next();
  };
}

export function operatorOf(res: Response): Operator {
  return res.locals.operator as Operator;
}
