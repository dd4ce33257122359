import type { TObject, TProperties } from '@sinclair/typebox';
import type { ApiComponentName } from '../../common/api-contract/components';
import { COMPONENTS_PATH } from '../../common/api-contract/schema-kit';

export type Schema = Record<string, unknown>;

/** A body of the API contract, by its component name (checked by the compiler against apiComponents). */
export const bodyRef = (name: ApiComponentName): Schema => ({ $ref: `${COMPONENTS_PATH}${name}` });

/**
 * An operation's query parameters, one per member of its query object. Each parameter's schema is that member's
 * schema object itself, the one the route's validator was compiled with.
 */
export function queryParameters<T extends TProperties>(query: TObject<T>, descriptions: Partial<Record<keyof T, string>> = {}): Schema[] {
  const required = new Set(query.required as readonly string[] | undefined);
  return Object.entries(query.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
    schema,
  }));
}
