/**
 * The Messages API's structured outputs (`output_config.format`, JSON schema) as far as the simulator honours them:
 * which schemas the API refuses, and which of the reader's tools a schema asks for. The API's documented limits
 * (platform.claude.com build-with-claude/structured-outputs, "JSON Schema limitations"; the SDK's
 * src/lib/transform-json-schema.ts moves the same keywords into descriptions): every object must say
 * `additionalProperties: false`; no numeric bounds, no string lengths, no array sizes beyond `minItems` 0 or 1, only
 * the listed string formats, only local `$ref`s and none that recurses.
 */
const REFUSED_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
] as const;

const STRING_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/** Where in the request a schema problem is, in the API's path style. */
const SCHEMA_PATH = 'output_config.format.schema';

/** Why the API would refuse this schema with a 400, or null when it takes it. */
export function outputSchemaProblem(schema: Record<string, unknown>): string | null {
  const definitions = { ...asRecord(schema.$defs), ...asRecord(schema.definitions) };
  return problemAt(schema, SCHEMA_PATH, definitions, []);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function problemAt(node: unknown, path: string, definitions: Record<string, unknown>, refsOpen: string[]): string | null {
  if (!isRecord(node)) return null;
  for (const keyword of REFUSED_KEYWORDS) {
    if (node[keyword] !== undefined) return `${path}: '${keyword}' is not supported in structured outputs`;
  }
  if (typeof node.minItems === 'number' && node.minItems > 1) {
    return `${path}: 'minItems' values other than 0 or 1 are not supported in structured outputs`;
  }
  if (typeof node.format === 'string' && !STRING_FORMATS.has(node.format)) {
    return `${path}: string format '${node.format}' is not supported in structured outputs`;
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if ((types.includes('object') || node.properties !== undefined) && node.additionalProperties !== false) {
    return `${path}: 'additionalProperties' must be explicitly set to false for objects in structured outputs`;
  }
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (!ref.startsWith('#')) return `${path}: external '$ref' ${ref} is not supported in structured outputs`;
    if (refsOpen.includes(ref) || ref === '#') return `${path}: recursive schemas are not supported in structured outputs`;
    const name = ref.replace(/^#\/(\$defs|definitions)\//, '');
    return problemAt(definitions[name], path, definitions, [...refsOpen, ref]);
  }
  if (Array.isArray(node.enum) && node.enum.some((value) => typeof value === 'object' && value !== null)) {
    return `${path}: 'enum' values must be strings, numbers, booleans or null in structured outputs`;
  }
  for (const [name, child] of Object.entries(asRecord(node.properties))) {
    const problem = problemAt(child, `${path}.properties.${name}`, definitions, refsOpen);
    if (problem) return problem;
  }
  const items = problemAt(node.items, `${path}.items`, definitions, refsOpen);
  if (items) return items;
  for (const keyword of ['anyOf', 'allOf', 'oneOf'] as const) {
    const variants = node[keyword];
    if (!Array.isArray(variants)) continue;
    for (const [index, variant] of variants.entries()) {
      const problem = problemAt(variant, `${path}.${keyword}.${index}`, definitions, refsOpen);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * The reader's tools by the top-level fields of their answers: a constrained request names no tool, so the
 * simulated model knows its task the way a real one does, by the shape it is asked to write.
 */
const TOOL_FIELDS: Record<string, readonly string[]> = {
  classify_document: ['confidence', 'documentType', 'reason'],
  record_invoice: ['confidence', 'invoice'],
  score_order: ['decision', 'reasons', 'score'],
  summarize_chunk: ['keyTerms', 'summary'],
  transcribe_page: ['keyTerms', 'summary', 'text'],
  summarize_document: ['keyTopics', 'summary', 'title'],
  summarise_tickets: ['themes', 'urgent'],
  write_digest_narrative: ['narrative'],
};

/** The tool whose answer the schema describes (the same top-level fields), or null. */
export function toolForSchema(schema: Record<string, unknown>): string | null {
  const fields = Object.keys(asRecord(schema.properties)).sort().join(',');
  return Object.entries(TOOL_FIELDS).find(([, known]) => known.join(',') === fields)?.[0] ?? null;
}
