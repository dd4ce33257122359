import { JOB_TYPE_DEFINITIONS } from '../common/job-types/registry';

/**
 * Every registered type's reviewer view (its `reviewer` field), by type name, as a JavaScript module of plain data.
 * The page learns the types from the registry without bundling the definitions, whose TypeBox schemas would more
 * than double its script; of the schemas it carries only an editable result's, as JSON Schema.
 */
export function reviewerViewsSource(): string {
  const views = Object.fromEntries(JOB_TYPE_DEFINITIONS.map((definition) => [definition.name, definition.reviewer]));
  return `export default ${JSON.stringify(views)};`;
}
