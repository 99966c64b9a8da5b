/**
 * Reading a saved plan for `apply --plan FILE`: the file is read safely (src/files.ts), its
 * digest compared with the pinned one, then parsed and checked for consistency (src/plan).
 * What the file says about the live state is checked later, against the service, by applyPlan.
 */
import { readRegularFile } from '../files.js';
import { hint, worded } from '../hint.js';
import { parsePlan, planDigest, PlanFileError, type Plan } from '../plan/index.js';

/** Largest saved plan read: 100,000 changed scopes fit several times over. */
export const MAX_PLAN_BYTES = 256 * 1024 * 1024;

/**
 * Reads, pins and checks a saved plan.
 * @param sha256 the digest `plan --out` printed; when given, a file with another digest is refused
 * @throws PlanFileError (or FileAccessError) naming the file and the first problem; nothing is written
 */
export async function readSavedPlan(file: string, sha256?: string): Promise<Plan> {
  const bytes = await readRegularFile(file, { maxBytes: MAX_PLAN_BYTES, what: 'saved plan' });
  if (sha256 !== undefined) checkDigest(file, bytes, sha256);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PlanFileError(`${file} is not UTF-8 text, so not a saved plan`);
  }
  return parsePlan(text, file);
}

function checkDigest(file: string, bytes: Uint8Array, expected: string): void {
  const pinned = expected.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/u.test(pinned)) throw new PlanFileError(worded`${hint('planSha256')} needs the 64 hex characters \`plan --out\` printed`);
  const actual = planDigest(bytes);
  if (actual !== pinned) {
    throw new PlanFileError(`${file} has sha256 ${actual}, not the pinned ${pinned}: it is not the plan that was reviewed; nothing was written`);
  }
}
