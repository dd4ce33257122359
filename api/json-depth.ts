import type { NextFunction, Request, Response } from 'express';
import { apiErrors } from './api-error';

/** No body the API takes needs more; everything past it is an attack on code that recurses (validators, digests). */
export const MAX_JSON_DEPTH = 32;

/** How deeply `value` nests arrays and objects, walked without recursion so the check itself cannot overflow. */
export function jsonDepth(value: unknown, stopAbove = Infinity): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > stopAbove) return deepest;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** Refuses a JSON body nested deeper than MAX_JSON_DEPTH with a 400, before any route looks at it. */
export function limitJsonDepth() {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.body !== null && typeof req.body === 'object' && jsonDepth(req.body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return next(apiErrors.invalidRequest(`the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`));
    }
    next();
  };
}
