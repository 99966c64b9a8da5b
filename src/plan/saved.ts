/**
 * The saved plan: what `plan --out FILE` writes (the plan document, encode.ts) and `apply --plan
 * FILE` reads. On the way back in it is validated against schemas/plan.schema.json and checked
 * for consistency (checks.ts), then decoded. A plan holds domains, scope keys and fingerprints,
 * never a credential.
 */
import type { ErrorObject, ValidateFunction } from '../schema-validator.js';
import { plan as planValidatorCompiled } from '../generated/plan-validator.js';
import { PLAN_FORMAT_VERSION, type Plan } from './types.js';
import { decodePlan, type PlanDocument } from './encode.js';
import { isPlainObject } from '../plain-object.js';
import { consistencyProblem } from './checks.js';
import { createHash } from 'node:crypto';

/** A saved plan that cannot be read: not JSON, another format version, or not a plan. */
export class PlanFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanFileError';
  }
}

// Compiled at build time (scripts/schema-validators.mjs): a run compiles nothing.
const validatePlan = planValidatorCompiled as ValidateFunction<PlanDocument>;

/**
 * Reads a saved plan's text: its schema, then its consistency (checks.ts), then decodes it.
 * Whether a saved plan file can be trusted is decided by src/reconcile/saved-plan.ts, which runs
 * these steps between the pin and the staleness checks.
 * @param text the file's text.
 * @param file the file's name, used only in error messages.
 * @throws PlanFileError with a one-line reason.
 */
export function parsePlan(text: string, file = 'plan file'): Plan {
  const document = parsePlanSchema(text, file);
  const problem = consistencyProblem(document, file);
  if (problem) throw new PlanFileError(problem);
  return decodePlan(document);
}

/**
 * The schema step: JSON, this version's formatVersion, schemas/plan.schema.json.
 * @returns the plan document, not yet checked for consistency nor decoded
 * @throws PlanFileError with a one-line reason.
 */
export function parsePlanSchema(text: string, file = 'plan file'): PlanDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text it stopped at.
    throw new PlanFileError(`${file} is not JSON (${text.length} characters)`);
  }
  const version = isPlainObject(value) ? value.formatVersion : undefined;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new PlanFileError(
      `${file} has formatVersion ${version === undefined ? 'missing' : JSON.stringify(version)}; this autojoin-sync reads formatVersion ${PLAN_FORMAT_VERSION} (make the plan again with this version)`,
    );
  }
  if (!validatePlan(value)) {
    // Stryker disable next-line OptionalChaining: a compiled validator that returns false has set `errors`; `?.` only satisfies the type
    throw new PlanFileError(`${file} is not a valid plan: ${describeSchemaError(validatePlan.errors?.[0])}`);
  }
  return value;
}

/** @returns the sha256 of a saved plan's bytes, 64 lower-case hex characters (what `--plan-sha256` pins). */
export function planDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * @param error the first error of the plan's schema validator (none: the validator reported no error)
 * @returns where and how the document breaks schemas/plan.schema.json, in one line
 */
export function describeSchemaError(error: ErrorObject | undefined): string {
  if (!error) return 'does not match schemas/plan.schema.json';
  const where = error.instancePath === '' ? 'the top level' : error.instancePath;
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  const allowed = error.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : '';
  return `invalid at ${where}: ${error.message ?? 'does not match the schema'}${extra}${allowed}`;
}
