/** What `who` and `inventory` share: the policies under the paths, each with its entries and their places. */
import { loadPolicies, type Policy } from '../policy/index.js';
import type { RunSettings } from '../run/settings.js';
import { RunError } from '../output/exit-codes.js';
import { configuredSecrets } from '../run/secrets.js';
import { printDiagnostics } from './print.js';

/**
 * Loads the policies with every domain entry placed (rules are not checked: a listing is wanted
 * whatever they say). Errors are printed on stderr and end the command (exit 1).
 */
export async function loadPlacedPolicies(settings: Pick<RunSettings, 'paths' | 'base' | 'roots' | 'project'>): Promise<Policy[]> {
  const where = { cwd: settings.base, roots: settings.roots, project: settings.project };
  const load = await loadPolicies(settings.paths, { ...where, secrets: configuredSecrets(process.env), entries: true, rules: false });
  const errors = load.diagnostics.filter((d) => d.severity === 'error');
  printDiagnostics(errors);
  if (errors.length > 0) throw new RunError(`${errors.length} ${errors.length === 1 ? 'error' : 'errors'} in the policy files (see above, or run \`autojoin-sync validate\`)`);
  return load.policies;
}
