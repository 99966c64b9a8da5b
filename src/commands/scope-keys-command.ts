/**
 * The scope keys the policy files under a place declare (src/cli/commands/completion.ts, which
 * completes `--scope` with them): files with errors give what they can, and no diagnostic is kept.
 */
import { loadPolicies, loadProjectConfig } from '../policy/index.js';
import type { RunPlace } from '../run/place.js';
import type { ScopeKey } from '../scope.js';

/** @returns the keys of the policies under the place's paths, in the order loading found them */
export async function scopeKeysCommand(place: Pick<RunPlace, 'paths' | 'base' | 'roots' | 'projects'>): Promise<ScopeKey[]> {
  // Each file under its own project file (its defaults): a monorepo's root completes every team's scopes.
  const projects = await Promise.all(place.projects.map(async (one) => ({ dir: one.dir, config: (await loadProjectConfig(one.projectFile, place)).config })));
  const { policies } = await loadPolicies(place.paths, { cwd: place.base, roots: place.roots, projects });
  return policies.map((policy) => policy.key);
}
