/**
 * Plan files as a request names them, for both front ends: a saved plan read, pinned and checked
 * once (`apply --plan FILE --plan-sha256 HEX`, `show`; the action's plan-file and plan-sha256), the
 * scopes a plan document covers (`import --scopes-from PLAN`), the
 * part of it an apply writes (`--shard K/N`, input shard), and a plan written with its sha256
 * (`plan --out FILE`; the action's plan file under RUNNER_TEMP).
 */
import { writeOutputFile } from '../output/sinks.js';
import { parsePlan, planDigest, savedPlanPart, serializePlan } from '../plan/index.js';
import type { Plan } from '../plan/types.js';
import { readSavedPlan } from '../reconcile/saved-plan.js';
import type { ScopeKey } from '../scope.js';

/** The most bytes a plan file may hold (what `import --scopes-from` reads at most, too). */
export { MAX_PLAN_BYTES } from '../reconcile/saved-plan.js';

/**
 * Reads a saved plan: the size cap, the pin, the schema, the plan's own consistency.
 * @throws the refusals of a plan file (not found, too large, pin mismatch, invalid)
 */
export function readSavedPlanCommand(file: string, sha256?: string): Promise<Plan> {
  return readSavedPlan(file, sha256);
}

/**
 * @param name the document's name in errors (a file, or `<stdin>`)
 * @returns the scopes a plan document (`plan --format json`, `plan --out`) covers, in its order
 * @throws the plan parser's error naming `name` when the text is not a plan
 */
export function planScopeKeys(text: string, name: string): ScopeKey[] {
  return parsePlan(text, name).scopes.map((scope) => scope.key);
}

/**
 * The part of a saved plan an apply writes: all of it, or with a shard (K/N) its part of a merged plan.
 * @param file the plan file as the request named it (its refusals name it)
 */
export function savedPlanShard(whole: Plan, file: string, shard: string | undefined): Plan {
  return savedPlanPart(whole, file, shard);
}

/**
 * Writes the plan document (never through a symlink, as every output file).
 * @returns its sha256, what `--plan-sha256` and the action's `plan-sha256` pin
 */
export async function writePlanCommand(file: string, plan: Plan): Promise<string> {
  const written = await writeOutputFile(file, serializePlan(plan));
  return planDigest(Buffer.from(written, 'utf8'));
}
