/**
 * Owners are compared as written (`autojoin-sync.owner`), so two that differ only by look-alike
 * letters (`infra` and `іnfra`, a Cyrillic і) are different owners that read the same. Wherever
 * an owner other than this run's is shown, it is marked when it reads as this run's owner or mixes
 * scripts: the rule of domains and scope ids (src/homographs.ts).
 */
import { identifierProblem, skeleton } from '../homographs.js';

/**
 * @param other the owner a live marker names
 * @param own this run's owner
 * @returns `; a look-alike of this repository's owner "infra", not it`, or the mixed-script
 *   problem, as a clause to append; '' when `other` reads as itself
 */
export function ownerLookalikeNote(other: string, own: string | undefined): string {
  if (other === own) return '';
  if (own !== undefined && skeleton(other) === skeleton(own)) return `; a look-alike of this repository's owner ${JSON.stringify(own)}, not it`;
  const problem = identifierProblem(other);
  return problem === null ? '' : `; the owner ${problem}`;
}
