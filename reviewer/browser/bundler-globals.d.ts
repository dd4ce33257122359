/**
 * esbuild resolves `require` of a module it bundles. common/validation loads ajv with it on first use (so the
 * workflow sandbox, which evaluates modules per run, does not pay for ajv in runs that validate nothing).
 */
declare function require(id: string): unknown;
