/** Only the $schema/$id/title headers are stripped: the model sees the very schema ajv checks its answer with. */
export function toolSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, title: _title, ...rest } = schema;
  return rest;
}
