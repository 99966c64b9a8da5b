/**
 * The saved plan: what `plan --out FILE` writes and `apply --plan FILE` reads. Its text
 * is stable (fixed key order, 2-space indent, trailing newline), so the same plan always
 * serializes to the same bytes, and it is validated against schemas/plan.schema.json on
 * the way back in. A plan holds domains, scope keys and fingerprints, never a credential.
 */
import { createSchemaValidator, type ErrorObject, type ValidateFunction } from '../schema-validator.js';
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import { compareStrings } from '../domain.js';
import { PLAN_FORMAT_VERSION, type Plan } from './types.js';
import { consistencyProblem } from './checks.js';
import { createHash } from 'node:crypto';

/** A saved plan that cannot be read: not JSON, another format version, or not a plan. */
export class PlanFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanFileError';
  }
}

// Compiled on first use, so commands that never read a saved plan do not pay for it.
let validatePlan: ValidateFunction<Plan> | undefined;

function planValidator(): ValidateFunction<Plan> {
  validatePlan ??= createSchemaValidator({ allErrors: false }).compile<Plan>(planSchema);
  return validatePlan;
}

/** Keys in the order a reader expects them; any other key sorts after these, alphabetically. */
const KEY_ORDER = [
  'formatVersion', 'createdAt', 'target', 'owner', 'shard', 'summary', 'changes', 'notManagedHere', 'scopes',
  'kind', 'key', 'scopeType', 'scope', 'scopeName', 'componentId', 'domain', 'reason', 'explicitEmpty', 'source',
  'field', 'metadata', 'keptMetadata', 'before', 'after', 'added', 'removed', 'removalReasons', 'unchanged', 'fieldChanges', 'fingerprint',
  'create', 'update', 'clear', 'domainsAdded', 'domainsRemoved',
  'file', 'line', 'column',
];
const KEY_RANK = new Map(KEY_ORDER.map((key, index) => [key, index]));

/** @returns the plan as stable JSON text: fixed key order, 2-space indent, trailing newline. */
export function serializePlan(plan: Plan): string {
  return `${JSON.stringify(ordered(plan), null, 2)}\n`;
}

/**
 * Reads a saved plan's text: its schema, then its consistency (checks.ts). Whether a saved plan
 * file can be trusted is decided by src/reconcile/saved-plan.ts, which runs these two steps
 * between the pin and the staleness checks.
 * @param text the file's text.
 * @param file the file's name, used only in error messages.
 * @throws PlanFileError with a one-line reason.
 */
export function parsePlan(text: string, file = 'plan file'): Plan {
  const plan = parsePlanSchema(text, file);
  const problem = consistencyProblem(plan, file);
  if (problem) throw new PlanFileError(problem);
  return plan;
}

/**
 * The schema step: JSON, this version's formatVersion, schemas/plan.schema.json.
 * @throws PlanFileError with a one-line reason.
 */
export function parsePlanSchema(text: string, file = 'plan file'): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PlanFileError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const version = isObject(value) ? value.formatVersion : undefined;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new PlanFileError(
      `${file} has formatVersion ${version === undefined ? 'missing' : JSON.stringify(version)}; this autojoin-sync reads formatVersion ${PLAN_FORMAT_VERSION} (make the plan again with this version)`,
    );
  }
  const validate = planValidator();
  if (!validate(value)) throw new PlanFileError(`${file} is not a valid plan: ${describeError(validate.errors?.[0])}`);
  return value;
}

/** @returns the sha256 of a saved plan's bytes, 64 lower-case hex characters (what `--plan-sha256` pins). */
export function planDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'does not match schemas/plan.schema.json';
  const where = error.instancePath === '' ? 'the top level' : error.instancePath;
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  const allowed = error.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : '';
  return `invalid at ${where}: ${error.message ?? 'does not match the schema'}${extra}${allowed}`;
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (!isObject(value)) return value;
  const keys = Object.keys(value).sort(compareKeys);
  return Object.fromEntries(keys.map((key) => [key, ordered(value[key])]));
}

function compareKeys(a: string, b: string): number {
  const rankA = KEY_RANK.get(a) ?? KEY_ORDER.length;
  const rankB = KEY_RANK.get(b) ?? KEY_ORDER.length;
  return rankA - rankB || compareStrings(a, b);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
