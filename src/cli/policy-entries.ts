/** What `who` and `inventory` share: the policies under the paths, each with its entries and their places. */
import { loadPolicies, type Policy, type ProjectConfig } from '../policy/index.js';
import { RunError } from '../run/exit-codes.js';
import { configuredSecrets } from '../run/secrets.js';
import { printDiagnostics } from './session.js';

/**
 * Loads the policies with every domain entry placed (rules are not checked: a listing is wanted
 * whatever they say). Errors are printed on stderr and end the command (exit 1).
 */
export async function loadPlacedPolicies(paths: readonly string[], cwd: string, project: ProjectConfig): Promise<Policy[]> {
  const load = await loadPolicies(paths, { cwd, project, secrets: configuredSecrets(process.env), entries: true, rules: false });
  const errors = load.diagnostics.filter((d) => d.severity === 'error');
  printDiagnostics(errors);
  if (errors.length > 0) throw new RunError(`${errors.length} ${errors.length === 1 ? 'error' : 'errors'} in the policy files (see above, or run \`autojoin-sync validate\`)`);
  return load.policies;
}
