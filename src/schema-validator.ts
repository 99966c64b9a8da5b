/**
 * The one ajv set-up of the codebase: JSON Schema draft 2020-12, strict mode (a typo in a schema
 * is an error, not a silently ignored keyword). Callers compile lazily, on first use, so the
 * start path never pays for it.
 *
 * The schemas are the repository's own (schemas/), so they are not checked against the draft
 * 2020-12 meta-schema at run time: compiling that meta-schema cost more than compiling the
 * schemas themselves (about 0.1 s of CPU in every `plan`). test/policy/schema.test.ts checks every
 * schema file against it instead; strict mode still rejects an unknown keyword here.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';

export type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

/**
 * @param options `allErrors`: report every problem (policy files), not only the first (answers, plans)
 * @returns a new validator instance
 */
export function createSchemaValidator(options: { allErrors: boolean }): Ajv2020 {
  return new Ajv2020({ allErrors: options.allErrors, strict: true, verbose: options.allErrors, validateSchema: false });
}
