import { createHash } from 'node:crypto';
import fc from 'fast-check';

/**
 * Hostile and malformed requests for every operation of an OpenAPI document, generated with fast-check: valid
 * values from the document's own schemas mixed with wrong types, huge and deeply nested JSON, unicode and
 * traversal in paths, forged tokens, other tenants' ids and credentials, and uploads of every shape.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = { [key: string]: unknown };

export interface Operation {
  method: string;
  template: string;
  operation: Schema;
}

export interface FuzzRequest {
  method: string;
  /** The path as sent, already URL-encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /** What was generated, for the failure report. */
  summary: string;
}

/** What the fuzzer knows about the deployment: real credentials and real job ids, so requests get past the door. */
export interface FuzzContext {
  /** API keys of two tenants (the second one's jobs must look missing to the first). */
  apiKeys: string[];
  reviewerTokens: string[];
  adminKey: string;
  /** Ids of jobs that exist, of both tenants. */
  jobIds: string[];
  /** The tenants' ids, for routes that name a tenant (an operator's spend cap, the operators' audit trail). */
  tenantIds: string[];
  /** Submissions reuse these keys, so the fuzz creates a bounded number of jobs however long it runs. */
  idempotencyKeys: string[];
  /** Page tokens the API gave out, to be replayed, mutated and forged. */
  pageTokens: string[];
}

/**
 * Page tokens an attacker can make: real ones with a byte changed, and new ones in the observable
 * `<base64url>.<checksum>` shape with an unkeyed checksum (sha256, as a guess would compute it).
 */
function pageTokenValue(context: FuzzContext): fc.Arbitrary<string> {
  const forged = fc.uint8Array({ minLength: 1, maxLength: 256 }).map((bytes) => {
    const body = Buffer.from(bytes);
    return `${body.toString('base64url')}.${createHash('sha256').update(body).digest('base64url').slice(0, 12)}`;
  });
  const real = context.pageTokens.length > 0 ? context.pageTokens : ['x.y'];
  const mutated = fc
    .tuple(fc.constantFrom(...real), fc.nat(), fc.string({ minLength: 1, maxLength: 2 }))
    .map(([token, at, text]) => token.slice(0, at % token.length) + text + token.slice((at % token.length) + 1));
  return fc.oneof(forged, mutated, fc.constantFrom(...real));
}

export function operationsOf(document: { paths: Record<string, Record<string, Schema>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
  );
}

/** Header values fetch can send: visible ASCII and spaces, at most 2 kB. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 2048 });

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  "' OR 1=1 --",
  "WorkflowId = 'x' OR TenantId != ''",
  '<script>alert(1)</script>',
  '{"$gt":""}',
  '\u202e\u0000\uffff',
  'invoice:demo:',
  'a'.repeat(10_000),
);

const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 64 }) },
  { weight: 2, arbitrary: nastyStrings },
  { weight: 1, arbitrary: fc.string({ minLength: 1_000, maxLength: 20_000 }) },
);

/** JSON nested `depth` levels deep, written as text so no recursion happens on this side either. */
function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Values that fit a JSON schema most of the time, and break it in every way some of the time. */
export function valueFor(schema: Schema | undefined, resolve: (ref: string) => Schema, depth = 0): fc.Arbitrary<Json> {
  const wild = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>;
  if (!schema || depth > 6) return wild;
  if (typeof schema.$ref === 'string') return valueFor(resolve(schema.$ref), resolve, depth + 1);
  const pick = (fitting: fc.Arbitrary<Json>) => fc.oneof({ weight: 4, arbitrary: fitting }, { weight: 1, arbitrary: wild });
  if (Array.isArray(schema.enum)) return pick(fc.constantFrom(...(schema.enum as Json[])));
  if (schema.const !== undefined) return pick(fc.constant(schema.const as Json));
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      return fc.oneof(...(options as Schema[]).map((option) => valueFor(option, resolve, depth + 1)));
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type[0] as string) : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return pick(anyString);
    case 'integer':
      return pick(fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 53, Number.MAX_SAFE_INTEGER)));
    case 'number':
      return pick(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0.5, 1.5, 1e308)));
    case 'boolean':
      return pick(fc.boolean());
    case 'array':
      return pick(fc.array(valueFor(schema.items as Schema | undefined, resolve, depth + 1), { maxLength: 5 }));
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const entries = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, valueFor(property, resolve, depth + 1)]),
      );
      const fitting = fc.record(entries, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
      const extra = fc.dictionary(fc.string({ maxLength: 12 }), wild, { maxKeys: 3 });
      return pick(fc.tuple(fitting, extra).map(([known, unknown]) => ({ ...unknown, ...known }) as Json));
    }
    default:
      return wild;
  }
}

function jsonBody(schema: Schema | undefined, resolve: (ref: string) => Schema): fc.Arbitrary<{ text: string; note: string }> {
  return fc.oneof(
    { weight: 6, arbitrary: valueFor(schema, resolve).map((value) => ({ text: JSON.stringify(value), note: 'json' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1_000, max: 40_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([depth, kind]) => ({ text: deeplyNested(depth, kind), note: `${kind} nested ${depth} deep` })),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text, note: 'not json' })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((mb) => ({ text: `"${'x'.repeat(mb * 1024 * 1024)}"`, note: `${mb} MB string` })) },
  );
}

/** Upload bytes: random, PDF-looking, or text (text only from the bounded pool, so few jobs really start). */
function uploadBytes(): fc.Arbitrary<{ bytes: Uint8Array; note: string }> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ minLength: 0, maxLength: 4096 }).map((bytes) => ({ bytes: Uint8Array.from([0xff, 0x00, ...bytes]), note: 'binary' })) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((bytes) => ({ bytes: Uint8Array.from([...Buffer.from('%PDF-1.7\n'), ...bytes]), note: 'broken pdf' })) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 500 }).map((text) => ({ bytes: new TextEncoder().encode(text), note: 'text' })) },
    { weight: 1, arbitrary: fc.constant({ bytes: new Uint8Array(0), note: 'empty' }) },
  );
}

function authorization(kinds: string[], context: FuzzContext): fc.Arbitrary<string | undefined> {
  const valid: string[] = [];
  if (kinds.includes('apiKey')) valid.push(...context.apiKeys);
  if (kinds.includes('reviewerToken')) valid.push(...context.reviewerTokens);
  if (kinds.includes('adminKey')) valid.push(context.adminKey);
  const everyCredential = [...context.apiKeys, ...context.reviewerTokens, context.adminKey];
  return fc.oneof(
    { weight: valid.length > 0 ? 6 : 0, arbitrary: fc.constantFrom(...(valid.length > 0 ? valid : ['none'])).map((token) => `Bearer ${token}`) },
    { weight: 1, arbitrary: fc.constantFrom(...everyCredential).map((token) => `Bearer ${token}`) },
    { weight: 1, arbitrary: headerText.map((text) => `Bearer ${text}`) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, 'Basic ZGVtbzpkZW1v', 'Bearer', 'bearer demo-key ', `Bearer ${'k'.repeat(4096)}`) },
  );
}

function securityKinds(operation: Schema): string[] {
  const security = (operation.security ?? []) as Array<Record<string, unknown>>;
  return security.flatMap((entry) => Object.keys(entry));
}

/** Real ids for the parameters that name a job or a tenant, so requests reach data (another tenant's included). */
function realValues(name: string, context: FuzzContext): Array<fc.Arbitrary<string>> {
  const ids = name === 'id' || name === 'jobId' ? context.jobIds : name === 'tenantId' || name === 'tenant' ? context.tenantIds : [];
  return ids.length > 0 ? [fc.constantFrom(...ids)] : [];
}

function pathValue(name: string, context: FuzzContext): fc.Arbitrary<string> {
  const real = realValues(name, context);
  return fc.oneof(...real, ...real, anyString.filter((text) => text.length > 0)).map((value) => encodeURIComponent(value));
}

/** One request for `op`: every part drawn independently, so combinations nobody thought of come up. */
export function requestFor(op: Operation, context: FuzzContext, resolve: (ref: string) => Schema): fc.Arbitrary<FuzzRequest> {
  const parameters = ((op.operation.parameters ?? []) as Schema[]).map((parameter) =>
    typeof parameter.$ref === 'string' ? resolve(parameter.$ref) : parameter,
  );
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const headerParameters = parameters.filter((parameter) => parameter.in === 'header');
  const content = ((op.operation.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>;

  const path = fc
    .tuple(...pathParameters.map((parameter) => pathValue(parameter.name as string, context)))
    .map((values) => pathParameters.reduce((built, parameter, index) => built.replace(`{${parameter.name as string}}`, values[index] as string), op.template));
  const query = fc
    .tuple(
      ...queryParameters.map((parameter) =>
        fc.option(
          parameter.name === 'pageToken'
            ? fc.oneof(pageTokenValue(context), anyString)
            : fc.oneof(
                ...realValues(parameter.name as string, context),
                valueFor(parameter.schema as Schema | undefined, resolve).map((value) => (typeof value === 'string' ? value : JSON.stringify(value))),
              ),
          { nil: undefined },
        ),
      ),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 2 }),
    )
    .map((values) => {
      const search = new URLSearchParams(values.at(-1) as Record<string, string>);
      queryParameters.forEach((parameter, index) => {
        const value = values[index] as string | undefined;
        if (value !== undefined) search.set(parameter.name as string, value);
      });
      return search.toString();
    });
  const headers = fc
    .tuple(
      authorization(securityKinds(op.operation), context),
      ...headerParameters.map((parameter) =>
        fc.option(parameter.name === 'Idempotency-Key' ? fc.oneof(fc.constantFrom(...context.idempotencyKeys), headerText) : headerText, { nil: undefined }),
      ),
    )
    .map(([auth, ...values]) => {
      const built: Record<string, string> = {};
      if (auth !== undefined) built.authorization = auth;
      headerParameters.forEach((parameter, index) => {
        const value = values[index];
        if (value !== undefined) built[(parameter.name as string).toLowerCase()] = value;
      });
      return built;
    });

  let body: fc.Arbitrary<{ body?: FuzzRequest['body']; headers: Record<string, string>; note: string }> = fc.constant({ headers: {}, note: '' });
  if (content['multipart/form-data']) {
    const fields = (((content['multipart/form-data'].schema as Schema | undefined)?.properties ?? {}) as Record<string, Schema>);
    body = fc
      .record({
        upload: uploadBytes(),
        fileName: fc.oneof(fc.constantFrom('invoice.pdf', 'x.txt', '../../etc/passwd', ''), fc.string({ unit: 'grapheme', maxLength: 300 })),
        values: fc.record(
          Object.fromEntries(
            Object.entries(fields)
              .filter(([name]) => name !== 'file')
              .map(([name, schema]) => [name, fc.option(valueFor(schema, resolve), { nil: undefined })]),
          ),
        ),
        key: fc.constantFrom(...context.idempotencyKeys),
      })
      .map(({ upload, fileName, values, key }): { body: FormData; headers: Record<string, string>; note: string } => {
        const form = new FormData();
        for (const [name, value] of Object.entries(values)) {
          if (value !== undefined) form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
        }
        form.set('file', new Blob([upload.bytes]), fileName);
        // Text uploads can start real jobs: they always carry a pooled key, so the number of jobs stays bounded.
        return { body: form, headers: upload.note === 'text' ? { 'idempotency-key': key } : {}, note: `multipart ${upload.note} ${upload.bytes.length} B` };
      });
  } else if (content['application/json']) {
    body = fc
      .tuple(jsonBody(content['application/json'].schema as Schema | undefined, resolve), fc.constantFrom('application/json', 'application/json', 'text/plain', undefined))
      .map(([json, contentType]): { body: string; headers: Record<string, string>; note: string } => ({ body: json.text, headers: contentType ? { 'content-type': contentType } : {}, note: `${json.note} as ${contentType ?? 'no type'}` }));
  }

  return fc.tuple(path, query, headers, body).map(([builtPath, search, builtHeaders, built]) => ({
    method: op.method,
    path: search ? `${builtPath}?${search}` : builtPath,
    headers: { ...builtHeaders, ...built.headers },
    ...(built.body !== undefined ? { body: built.body } : {}),
    summary: `${op.method} ${op.template} ${built.note}`.trim(),
  }));
}
