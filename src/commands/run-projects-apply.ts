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
import { splitPlan } from '../plan/joined-plan.js';
import type { Plan } from '../plan/types.js';
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

/**
 * Each project's part of the whole plan, by name, when the plan applied is one shard of a merged
 * plan: what spans the project's scopes (its limits, its rules' counts) is decided over that (issue 46).
 */
function wholeOfEach(whole: Plan | undefined): (name: string) => { wholePlan?: Plan } {
  if (whole === undefined) return () => ({});
  const parts = new Map(splitPlan(whole).map((part) => [part.project.name, part.plan]));
  return (name) => {
    const part = parts.get(name);
    return part === undefined ? {} : { wholePlan: part };
  };
}

/** The run's verdict: each project's part judged as apply judges a plan of one, under that project's context (over its part of the whole). */
export function projectsApplyVerdict(command: Pick<ApplyCommand, 'context' | 'plan' | 'wholePlan' | 'saved' | 'takeOwnership'>, allowBehind: readonly ScopeGlob[], verdictOne: VerdictStep): Verdict {
  const wholeOf = wholeOfEach(command.wholePlan);
  return projectsVerdict(command.plan, (part, project) => verdictOne({ context: contextOf(command.context, project.name), plan: part, ...wholeOf(project.name), saved: command.saved, takeOwnership: command.takeOwnership }, allowBehind));
}

/** Every project's part written under its context (its census counted over its part of the whole), after every project's checks and the one confirmation. */
export function applyEachProject(command: ApplyCommand, allowBehind: readonly ScopeGlob[], writeOne: WriteStep): Promise<ApplyReport> {
  const { wholePlan, confirm, onProgress, ...rest } = command;
  const wholeOf = wholeOfEach(wholePlan);
  return applyProjects(command.plan, command.context.perProject ?? [], {
    applyOne: (part, context, arrived, progress) => writeOne({ ...rest, context, plan: part, ...wholeOf(context.projects[0]?.name ?? ''), confirm: arrived, onProgress: progress }, allowBehind),
    ...(confirm ? { confirm } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
}
