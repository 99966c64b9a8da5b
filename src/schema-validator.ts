/**
 * The one ajv set-up of the codebase: JSON Schema draft 2020-12, strict mode (a typo in a schema
 * is an error, not a silently ignored keyword). The program compiles no schema when it runs: the
 * build compiles every schema it validates with into src/generated/ (scripts/schema-validators.mjs,
 * with these options; test/policy/generated-validators.test.ts holds them equal), so a run only
 * loads the validators and ajv itself is not bundled. Run-time code imports only the types below.
 *
 * The schemas are the repository's own (schemas/), so they are not checked against the draft
 * 2020-12 meta-schema when compiled: test/policy/schema.test.ts checks every schema file against
 * it instead; strict mode still rejects an unknown keyword.
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
