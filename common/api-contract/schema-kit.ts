import { type Static, type TProperties, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';

/** Where OpenAPI keeps named schemas; every `$ref` between API bodies points here. */
export const COMPONENTS_PATH = '#/components/schemas/';

/**
 * A string union as JSON Schema `enum`, typed from the very array it lists. TypeBox's own unions of literals
 * would emit `anyOf` of `const`s, which reads worse in the OpenAPI document and in ajv's errors.
 */
export function stringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: values });
}

/**
 * A reference to another API body by its component name. Bodies point at each other instead of nesting copies, so
 * the OpenAPI document and the validators hold each shape once; the name must be a key of apiComponents
 * (test/unit/api-contract.test.ts compiles every component, which fails on a dangling name).
 */
export function ref<T extends TSchema>(name: string, _schema: T, options: { description?: string } = {}): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({ ...options, $ref: `${COMPONENTS_PATH}${name}` });
}

/** An object that lists every member it may have: an unlisted field is an error, in the tests and in requests. */
export function closed<T extends TProperties>(properties: T, options: { description?: string; oneOf?: readonly TSchema[] } = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

export const dateTime = () => Type.String({ format: 'date-time' });
export const count = () => Type.Integer({ minimum: 0 });

/** Every list route pages alike: this many items unless the query's `limit` says fewer or more, up to `max`. */
export const LIST_PAGE_SIZE = { default: 50, max: 200 } as const;
/** A list query's `limit`. */
export const pageLimit = () => Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_PAGE_SIZE.max, default: LIST_PAGE_SIZE.default }));
/**
 * A list query's `pageToken`: the shape every `nextPageToken` has (the list's bytes, a dot, a 16-byte HMAC, both
 * base64url; api/jobs/page-tokens.ts). A token of that shape this list did not give out names no page: a 404.
 */
export const pageToken = () =>
  Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}$',
      maxLength: 4000,
      description: 'The `nextPageToken` of the previous page, with the same filters; any other token of its shape is a 404.',
    }),
  );
/** A list body's `nextPageToken`. */
export const nextPageToken = () =>
  Type.Optional(Type.String({ description: 'Pass as `pageToken` for the next page; absent on the last.' }));
