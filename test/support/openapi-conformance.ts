import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../api/openapi/document';
import type { Schema } from '../../api/openapi/refs';

/**
 * Holds API answers to the OpenAPI document the API serves: the route and method must be documented, the status
 * must be one the operation lists, the media type one it declares, and a JSON body must match the schema.
 * test/support/api-client.ts runs every answer the integration tests receive from the API through this.
 */

const BASE_ID = 'https://slowlane.test/openapi.json';
const document = openApiDocument({ serverUrl: 'http://127.0.0.1' }) as { paths: Record<string, Record<string, Schema>>; components: Schema };
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: BASE_ID, components: document.components });

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
const routes = Object.keys(document.paths)
  .map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: !template.includes('{'),
  }))
  // A literal path wins over a template that also matches it (/review/session before any /review/{x}).
  .sort((a, b) => Number(b.literal) - Number(a.literal));

const validators = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: Schema): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    // Response schemas point into #/components; point them at the components registered above instead.
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE_ID}#/components/`)) as Schema;
    validate = ajv.compile(rebased);
    validators.set(key, validate);
  }
  return validate;
}

export interface ObservedResponse {
  method: string;
  /** The request path as sent (URL-encoded). */
  path: string;
  status: number;
  contentType: string | null;
  /** The body as text; undefined when it was not read (streams, binary documents). */
  body?: string;
}

/** The template an actual path matches, e.g. /jobs/invoice%3Ademo%3Ak → /jobs/{id}. */
export function routeOf(path: string): string | undefined {
  return routes.find((route) => route.pattern.test(path))?.template;
}

/** Everything wrong with one answer, as readable lines; empty when it conforms. */
export function conformanceProblems(observed: ObservedResponse): string[] {
  const where = `${observed.method} ${observed.path} → ${observed.status}`;
  const template = routeOf(observed.path);
  const operation = template ? document.paths[template]?.[observed.method.toLowerCase()] : undefined;
  if (!template || !operation || !METHODS.has(observed.method.toLowerCase())) {
    // A method a documented path does not list is the 405 the document's description promises (api/method-not-allowed.ts).
    if (template && observed.status === 405) return bodyProblems(where, 'ErrorBody', { $ref: '#/components/schemas/ErrorBody' }, observed);
    // Unknown routes are the API's generic 404 and must still be the documented error body.
    if (observed.status !== 404) return [`${where}: the route is not in the OpenAPI document`];
    return bodyProblems(where, 'ErrorBody', { $ref: '#/components/schemas/ErrorBody' }, observed);
  }
  const responses = (operation.responses ?? {}) as Record<string, Schema>;
  const status = String(observed.status);
  const response = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
  if (!response) return [`${where}: status ${status} is not documented for ${observed.method} ${template} (documented: ${Object.keys(responses).join(', ')})`];
  const content = response.content as Record<string, { schema?: Schema }> | undefined;
  if (!content) {
    return observed.body ? [`${where}: the document says no body, but one came (${observed.body.slice(0, 80)})`] : [];
  }
  const mediaType = (observed.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // Exact media types first, then ranges such as text/* and */*, as OpenAPI orders them.
  const declared = content[mediaType] ?? content[`${mediaType.split('/')[0]}/*`] ?? content['*/*'];
  if (!declared) return [`${where}: content type "${mediaType}" is not one of ${Object.keys(content).join(', ')}`];
  if (mediaType !== 'application/json' || !declared.schema || observed.body === undefined) return [];
  return bodyProblems(where, `${observed.method} ${template} ${status}`, declared.schema, observed);
}

function bodyProblems(where: string, key: string, schema: Schema, observed: ObservedResponse): string[] {
  let body: unknown;
  try {
    body = JSON.parse(observed.body ?? '');
  } catch {
    return [`${where}: the body is not JSON: ${(observed.body ?? '').slice(0, 120)}`];
  }
  const validate = validatorFor(key, schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) => `${where}: body${error.instancePath} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
  );
}

/** Checks one value against a named component schema (e.g. each SSE event's data against JobEvent). */
export function schemaProblems(component: string, value: unknown): string[] {
  const validate = validatorFor(`component ${component}`, { $ref: `#/components/schemas/${component}` });
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${component}${error.instancePath} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`);
}

/** Media types whose bodies are checked; others (event streams, PDFs) are checked by type only. */
export function isCheckedBody(contentType: string | null): boolean {
  return /^application\/json\b/i.test(contentType ?? '');
}
