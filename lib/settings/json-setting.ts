import type { Static, TSchema } from '@sinclair/typebox';
import Ajv, { type ErrorObject } from 'ajv';
import type { Parsed, Problem, SettingType } from './setting';

/** One ajv for every JSON setting; schemas are compiled once, when their table is defined. */
const ajv = new Ajv({ allErrors: true, strict: true });

/**
 * A JSON value validated against a TypeBox schema (which is also its type), then optionally mapped, e.g. to wrap
 * the secrets inside it. Errors name the path inside the JSON, so `SLOWLANE_TENANTS[0].reviewerToken` is fixable.
 */
export function json<S extends TSchema, T = Static<S>>(
  schema: S,
  options: {
    description: string;
    secret?: boolean;
    /** What the schema cannot say (two entries sharing a key, a weak secret); paths as jsonPath() writes them. */
    check?: (value: Static<S>) => Problem[];
    map?: (value: Static<S>) => T;
  },
): SettingType<T> {
  const validate = ajv.compile<Static<S>>(schema);
  return {
    description: `JSON: ${options.description}`,
    ...(options.secret ? { secret: true } : {}),
    parse(raw): Parsed<T> {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return { ok: false, problems: [{ path: '', message: 'must be valid JSON' }] };
      }
      if (!validate(value)) return { ok: false, problems: (validate.errors ?? []).map(problemOf) };
      const problems = options.check?.(value) ?? [];
      if (problems.length > 0) return { ok: false, problems };
      return { ok: true, value: options.map ? options.map(value) : (value as T) };
    },
  };
}

function problemOf(error: ErrorObject): Problem {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') {
    return { path: jsonPath([...segments, String(error.params.missingProperty)]), message: 'is missing' };
  }
  if (error.keyword === 'additionalProperties') {
    return {
      path: jsonPath([...segments, String(error.params.additionalProperty)]),
      message: 'is not a known property',
    };
  }
  return { path: jsonPath(segments), message: error.message ?? 'is invalid' };
}

/** `[0].reviewerToken`, `["claude-haiku-4-5"].requestsPerMinute`: how the value would be reached in JavaScript. */
export function jsonPath(segments: ReadonlyArray<string | number>): string {
  return segments
    .map(String)
    .map((segment) => {
      if (/^\d+$/.test(segment)) return `[${segment}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(segment)) return `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join('');
}
