/**
 * The adopt command over the run context, as both front ends run it (src/cli/commands/adopt.ts,
 * src/action/adopt-step.ts): the plan is made in the context adopt gives (never pruning: adopting
 * writes files from live state), then the live state of every drifted scope goes into its policy
 * file, each edit checked as a policy file is. The front end makes the plan with its own
 * diagnostics and progress, and turns the outcome into lines, or a branch and a pull request.
 */
import type { Plan } from '../plan/types.js';
import { adoptDrift, type AdoptResult } from '../reconcile/adopt-drift.js';
import type { RunContext } from '../run/settings.js';

export interface AdoptCommand {
  /** The run's base, project file and secrets (no edited file may hold them). */
  context: Pick<RunContext, 'base' | 'project' | 'secrets' | 'today'> & Partial<Pick<RunContext, 'paths' | 'roots'>>;
  /** The plan made in {@link adoptContext}. */
  plan: Pick<Plan, 'changes' | 'drift' | 'redacted'>;
}

/** The context adopt plans in: the run's, never pruning. */
export function adoptContext<Context extends RunContext>(context: Context): Context {
  return { ...context, prune: false };
}

/** @returns what was adopted, into which files, and what was left for a person */
export function adoptCommand(command: AdoptCommand): Promise<AdoptResult> {
  const { context } = command;
  // With the run's paths, maxScopesPerDomain counts every policy file, as validate does (adopt-counts.ts).
  const place = context.paths && context.roots ? { paths: context.paths, roots: context.roots, base: context.base, project: context.project } : undefined;
  return adoptDrift(command.plan, context.base, { project: context.project, secrets: context.secrets, today: context.today, ...(place ? { place } : {}) });
}
