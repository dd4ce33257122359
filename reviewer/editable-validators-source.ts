import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone';
import type { JobTypeDefinition } from '../common/job-types/job-type';
import { JOB_TYPE_DEFINITIONS } from '../common/job-types/registry';
import { SCHEMA_FORMATS } from '../common/validation';

/**
 * Each type's editable result compiled ahead of time into plain JavaScript (ajv standalone), by type name, with the
 * same options and formats as the server's validator (common/validation.ts). The page gets validators that need no
 * `eval`, so its Content-Security-Policy can forbid it, and they check exactly what the API and the workflow check.
 */
export function editableValidatorsSource(): string {
  const ajv = new Ajv({ allErrors: true, strict: true, code: { source: true, esm: true } });
  addFormats(ajv, SCHEMA_FORMATS);
  const exports: Record<string, string> = {};
  const byType: string[] = [];
  const definitions: readonly JobTypeDefinition[] = JOB_TYPE_DEFINITIONS;
  definitions.forEach((definition, index) => {
    if (!definition.reviewer.editable) return;
    // Schemas are added by a key of our own: the types' names have dots, which read as part of a URI.
    const key = `editable${index}`;
    ajv.addSchema(definition.reviewer.editable.schema, key);
    exports[key] = key;
    byType.push(`${JSON.stringify(definition.name)}: ${key}`);
  });
  const validators = byType.length === 0 ? '' : standaloneCode(ajv, exports);
  return `${validators}\nexport default { ${byType.join(', ')} };\n`;
}
