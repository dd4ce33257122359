import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error';
import type { Schema } from './openapi/refs';

/** The methods an OpenAPI path item can declare (its other keys are parameters, summary, …). */
const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface PathMethods {
  pattern: RegExp;
  /** Path parameters in the template: a literal path is preferred over a template that also matches it. */
  parameters: number;
  allow: string[];
}

/** Every path of the document as a pattern, with the methods it declares (HEAD beside GET, as Express answers it). */
function pathMethods(paths: Record<string, Schema>): PathMethods[] {
  return Object.entries(paths).map(([template, item]) => {
    const declared = OPERATION_METHODS.filter((method) => method in item).map((method) => method.toUpperCase());
    const allow = declared.includes('GET') && !declared.includes('HEAD') ? [...declared, 'HEAD'] : declared;
    const literal = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
    // Exact: `/jobs/` (what a client's `/jobs/.` becomes) is no documented path, so it stays a 404.
    return { pattern: new RegExp(`^${literal.join('[^/]+')}$`), parameters: literal.length - 1, allow };
  });
}

/**
 * Placed after every route: a request that reached it on a path the document declares used a method the path does
 * not have, so it answers 405 with `Allow` (RFC 9110 §15.5.6) rather than the 404 of a path that does not exist.
 */
export function methodNotAllowed(paths: Record<string, Schema>) {
  const table = pathMethods(paths);
  return (req: Request, res: Response, next: NextFunction): void => {
    const matches = table.filter(({ pattern }) => pattern.test(req.path));
    if (matches.length === 0) return next();
    const fewest = Math.min(...matches.map((match) => match.parameters));
    const allow = [...new Set(matches.filter((match) => match.parameters === fewest).flatMap((match) => match.allow))];
    // A declared method nobody answered: its routes are not mounted in this deployment (e.g. /schedules), so 404.
    if (allow.includes(req.method)) return next();
    res.set('Allow', allow.join(', '));
    next(new ApiError(405, 'method_not_allowed', `${req.method} is not a method of ${req.path}; it has ${allow.join(', ')}`, { allow }));
  };
}
