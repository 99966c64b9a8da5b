/** What the who and inventory commands share: the policies under the context's paths, each domain entry placed. */
import { loadPolicies, type Policy } from '../policy/index.js';
import type { Diagnostic } from '../policy/types.js';
import { projectScopes, type RunContext } from '../run/settings.js';

/** The part of the run context a listing reads. */
export type ListingContext = Pick<RunContext, 'paths' | 'base' | 'roots' | 'project' | 'projects' | 'secrets'>;

/**
 * Loads the policies with every domain entry placed (rules are not checked: a listing is wanted
 * whatever they say).
 * @returns the policies, or none and the errors when a policy file has one
 */
export async function placedPolicies(context: ListingContext): Promise<{ policies: Policy[]; errors: Diagnostic[] }> {
  // Each file under its own project file (design: "Many projects, one run").
  const where = { cwd: context.base, roots: context.roots, project: context.project, projects: projectScopes(context) };
  const load = await loadPolicies(context.paths, { ...where, secrets: context.secrets, entries: true, rules: false });
  const errors = load.diagnostics.filter((d) => d.severity === 'error');
  return errors.length > 0 ? { policies: [], errors } : { policies: load.policies, errors: [] };
}
