/**
 * `apply` of a plan of several projects (design: "Many projects, one run"): the verdict of each
 * project under its own context, and the writes of each project's part under its own (its owner
 * in the markers), through the one-project apply (src/commands/apply-command.ts hands its steps
 * in, so the two never import each other).
 */
import type { ApplyReport } from '../apply/types.js';
import type { ScopeGlob } from '../policy/globs.js';
import type { RunContext } from '../run/settings.js';
import type { ApplyCommand } from './apply-types.js';
import { applyProjects, projectsVerdict } from './run-projects.js';
import type { Verdict } from './verdict.js';

export { manyProjects } from './run-projects.js';

type VerdictStep = (command: Pick<ApplyCommand, 'context' | 'plan' | 'wholePlan' | 'saved' | 'takeOwnership'>, allowBehind: readonly ScopeGlob[]) => Verdict;
type WriteStep = (command: ApplyCommand, allowBehind: readonly ScopeGlob[]) => Promise<ApplyReport>;

/** The project's context of the run (its limits and rules; a saved plan's recorded ones beaten by flags). */
function contextOf(context: RunContext, name: string): RunContext {
  const found = context.perProject?.find((one) => one.projects[0]?.name === name);
  if (found === undefined) throw new Error(`${name}: the plan's project is not one of this run's; make the plan again here`);
  return found;
}

/** The run's verdict: each project's part judged as apply judges a plan of one, under that project's context. */
export function projectsApplyVerdict(command: Pick<ApplyCommand, 'context' | 'plan' | 'wholePlan' | 'saved' | 'takeOwnership'>, allowBehind: readonly ScopeGlob[], verdictOne: VerdictStep): Verdict {
  return projectsVerdict(command.plan, (part, project) => verdictOne({ context: contextOf(command.context, project.name), plan: part, saved: command.saved, takeOwnership: command.takeOwnership }, allowBehind));
}

/** Every project's part written under its context, after every project's checks and the one confirmation. */
export function applyEachProject(command: ApplyCommand, allowBehind: readonly ScopeGlob[], writeOne: WriteStep): Promise<ApplyReport> {
  const { wholePlan: _whole, confirm, onProgress, ...rest } = command;
  return applyProjects(command.plan, command.context.perProject ?? [], {
    applyOne: (part, context, arrived, progress) => writeOne({ ...rest, context, plan: part, confirm: arrived, onProgress: progress }, allowBehind),
    ...(confirm ? { confirm } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
}
