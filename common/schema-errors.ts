/**
 * Schema errors in words a person can act on. Pure and free of ajv's runtime, so the API, the workflow and the
 * reviewer page (which bundles its own ahead-of-time validator) all say the same thing about the same mistake.
 */

/** A schema error as ajv reports it (the part we read); ajv's ErrorObject is one. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** "/totalAmount must be number" — a path a person can find in the form, and what is wrong with it. */
export function formatErrors(errors: readonly SchemaError[]): string[] {
  return errors.map((error) => {
    const path = error.instancePath === '' ? '(root)' : error.instancePath;
    if (error.keyword === 'additionalProperties') {
      return `${path} has an unknown property "${String(error.params.additionalProperty)}"`;
    }
    if (error.keyword === 'required') return `${path} is missing "${String(error.params.missingProperty)}"`;
    return `${path} ${error.message ?? 'is invalid'}`;
  });
}
