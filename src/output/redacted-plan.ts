import { markRedacted, type Plan } from '../plan/index.js';
import { hint, worded } from '../hint.js';
import { firstItems } from '../text.js';
import { log } from './log.js';
import { hasOutputSecrets, holdsSecret } from './sinks.js';

/**
 * Marks a plan that shows a secret of the run (src/plan/redacted.ts) before any output is made
 * from it, and says so once on the log: its outputs show `***` in the secret's place.
 */
export function markEchoedSecrets(plan: Plan): Plan {
  if (!hasOutputSecrets()) return plan; // nothing to look for: skip serializing a large plan
  const marked = markRedacted(plan, holdsSecret);
  if (marked.redacted !== undefined) {
    const where = marked.redacted.length > 0 ? ` (${firstItems(marked.redacted, 5, () => ', …')})` : '';
    log().warn(
      worded`the service shows a secret of this run in its answers${where}: every output shows *** in its place, and a saved plan of this run cannot be applied with ${hint('planFile')}`,
    );
  }
  return marked;
}
