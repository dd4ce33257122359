import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { TSchema } from '@sinclair/typebox';
import { JOB_TYPE_DEFINITIONS } from '../../common/job-types/registry';

/** The schema at a dot path through object properties, or undefined where the schema has no such field. */
function schemaAt(schema: TSchema | undefined, path: string): TSchema | undefined {
  let current = schema;
  for (const key of path.split('.')) {
    const properties = (current as { properties?: Record<string, TSchema> } | undefined)?.properties;
    current = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
  }
  return current;
}

describe('every type’s reviewer view points at fields its schemas have', () => {
  test('when a type is registered, then each field its reviewer page shows exists in the schema it is read from', () => {
    for (const definition of JOB_TYPE_DEFINITIONS) {
      const schemas: Record<string, TSchema | undefined> = {
        input: definition.input.kind === 'json' ? definition.input.schema : undefined,
        proposal: 'proposal' in definition ? definition.proposal : undefined,
        result: definition.result,
      };
      for (const section of definition.reviewer.sections) {
        for (const field of section.fields) {
          assert.ok(schemaAt(schemas[section.from], field.path), `${definition.name}: ${section.from}.${field.path} is not in its schema`);
        }
      }
    }
  });

  test('when a type shows a document or names its jobs from the input, then its input is of the kind that allows it', () => {
    for (const { name, input, reviewer } of JOB_TYPE_DEFINITIONS) {
      // GET /jobs/:id/document serves uploads only; a JSON type's page must not ask for one.
      if (reviewer.showsDocument) assert.equal(input.kind, 'file', `${name} shows a document but takes JSON`);
      const namedBy = 'namedBy' in reviewer ? reviewer.namedBy : undefined;
      if (namedBy !== undefined) {
        assert.equal(input.kind, 'json', `${name}: namedBy reads a JSON input`);
        const named = input.kind === 'json' ? schemaAt(input.schema, namedBy) : undefined;
        assert.equal(named?.type, 'string', `${name}: namedBy names a string field of the input`);
      }
    }
  });
});
